pub use spreadsheet_kit::security::*;
