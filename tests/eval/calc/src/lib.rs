pub mod args;
pub mod eval;
pub mod server;
pub mod tools;

pub use rmcp::ErrorData as McpError;
