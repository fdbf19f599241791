//! The front ends: each maps its arguments to a [`crate::session::Request`] and prints what the
//! session produced. The language server (`crate::lsp`) and the MCP server (`crate::mcp`) do
//! the same from their own modules.

pub mod baseline;
pub mod cargo;
pub mod check;
pub mod output;
