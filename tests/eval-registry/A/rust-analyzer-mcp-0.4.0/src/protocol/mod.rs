pub mod lsp;
pub mod mcp;

pub use lsp::{LSPRequest, LSPResponse};
pub use mcp::{ContentItem, MCPError, MCPRequest, MCPResponse, ToolDefinition, ToolResult};
