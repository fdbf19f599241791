//! An MCP server with `web_fetch` and `web_search` tools.

pub mod config;
pub mod server;
