//! Utility modules for domain types and operations

pub mod input_resolver;
pub mod json_util;
pub mod output;
