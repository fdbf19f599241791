pub use spreadsheet_kit::types::*;
