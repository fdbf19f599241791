pub mod config;
pub mod router;
pub mod runner;
pub mod server;

pub type McpError = rmcp::ErrorData;
