pub use spreadsheet_kit::errors::*;
