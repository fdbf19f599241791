pub use spreadsheet_kit::styles::*;
