#![allow(dead_code)]

pub mod pdf_export;
pub use pdf_export::PdfExport;
