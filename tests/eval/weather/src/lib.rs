pub mod api;
pub mod health;
pub mod server;
pub mod units;

pub type McpError = rmcp::ErrorData;
