//! docs.rs integration: cache and formatting for rustdoc JSON.

pub mod cache;
pub mod format;
