pub use spreadsheet_kit::config::*;
