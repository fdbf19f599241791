pub use spreadsheet_kit::tools::*;
