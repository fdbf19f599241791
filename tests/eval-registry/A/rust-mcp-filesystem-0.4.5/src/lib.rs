pub mod cli;
pub mod error;
pub mod fs_service;
pub mod handler;
pub mod macros;
pub mod server;
pub mod tools;
