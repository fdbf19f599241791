pub use spreadsheet_kit::formula::*;
