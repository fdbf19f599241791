pub use spreadsheet_kit::workbook::*;
