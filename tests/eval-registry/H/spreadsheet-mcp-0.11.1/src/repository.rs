pub use spreadsheet_kit::repository::*;
