pub mod handler;
pub mod tool;
pub mod utils;
