//! What every module of the server needs.

pub use rmcp::model::{CallToolResult, Content};
pub use rmcp::ErrorData as McpError;
pub use serde_json::json;
