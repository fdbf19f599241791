pub use spreadsheet_kit::diff::*;
