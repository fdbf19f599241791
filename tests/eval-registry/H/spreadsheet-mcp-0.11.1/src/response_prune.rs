pub use spreadsheet_kit::response_prune::*;
