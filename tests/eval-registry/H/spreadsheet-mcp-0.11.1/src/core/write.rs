pub use spreadsheet_kit::write::*;
