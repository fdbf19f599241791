pub use spreadsheet_kit::runtime::*;
