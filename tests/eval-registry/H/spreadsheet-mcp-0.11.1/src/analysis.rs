pub use spreadsheet_kit::analysis::*;
