pub use spreadsheet_kit::core::*;
