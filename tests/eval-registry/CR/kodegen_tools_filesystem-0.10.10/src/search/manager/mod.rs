mod config;
pub mod content_search;
pub mod context;
pub mod file_search;
pub mod files_mode;
mod utils;
