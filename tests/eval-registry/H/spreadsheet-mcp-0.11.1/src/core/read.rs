pub use spreadsheet_kit::read::*;
