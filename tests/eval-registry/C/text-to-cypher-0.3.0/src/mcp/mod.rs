pub mod mcp_server;
pub mod server_handler;
pub mod tools;

pub use mcp_server::run_mcp_server;
