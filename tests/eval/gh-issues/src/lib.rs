//! GitHub issues over MCP.

pub mod github;
pub mod server;

/// rmcp 0.1 only exports `rmcp::Error`; everything here calls it `McpError`.
pub type McpError = rmcp::Error;
