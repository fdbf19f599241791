pub use spreadsheet_kit::caps::*;
