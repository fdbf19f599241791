pub use spreadsheet_kit::recalc::*;
