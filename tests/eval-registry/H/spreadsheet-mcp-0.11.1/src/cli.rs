pub use spreadsheet_kit::cli::*;
