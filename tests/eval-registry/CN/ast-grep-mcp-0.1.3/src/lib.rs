pub mod command;
pub mod config;
pub mod format;
pub mod server;
