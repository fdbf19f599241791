// Re-exports all tool modules

pub mod charts;
pub mod common;
pub mod conditional;
pub mod data;
pub mod expanded;
pub mod format;
pub mod images;
pub mod layout;
pub mod read;
pub mod sheets;
pub mod sparklines;
pub mod tables;
pub mod validation;
pub mod workbook;
pub mod write;
