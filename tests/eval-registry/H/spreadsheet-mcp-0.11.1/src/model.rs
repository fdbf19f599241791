pub use spreadsheet_kit::model::*;
