pub use spreadsheet_kit::utils::*;
