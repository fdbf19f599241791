pub use spreadsheet_kit::state::*;
