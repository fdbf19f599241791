mod server_impl;
mod stdio_server;
mod streamable_http;
mod transport;

pub use server_impl::{
    DEFAULT_ALLOWED_ORIGINS, DEFAULT_BIND_ADDRESS, DEFAULT_PORT, DEFAULT_ROUTE_PATH, McpConfig, run_mcp, run_mcp_async,
};
pub use transport::TransportType;
