mod http_server;

pub use http_server::run_mcp_http;
