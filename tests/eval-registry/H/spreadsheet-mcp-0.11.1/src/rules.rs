pub use spreadsheet_kit::rules::*;
