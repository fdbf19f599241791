pub use spreadsheet_kit::fork::*;
