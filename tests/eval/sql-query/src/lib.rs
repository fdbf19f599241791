pub mod consts;
pub mod db;
pub mod server;

pub use rmcp::Error as McpError;
