pub mod config;
pub mod core;
pub(crate) mod resources;
pub(crate) mod tools;
pub(crate) mod utils;
