//@ dep: mcp-attr = "0.0.7"
//@ dep: serde_json = "1"
// mcp-attr 0.0.7 has no isError helper: a tool returns `Result<CallToolResult>` and builds the
// literal, `CallToolResult { content: Vec<CallToolResultContentItem>, is_error: Some(true), meta }`
// (`meta` is a plain `serde_json::Map`, and there is no `Default` for the struct). With empty
// `content`, or only a blank `TextContent`, the model reads nothing. The success conversions
// (`From<()>`, `From<String>`) are not error results.
use mcp_attr::schema::{CallToolResult, TextContent};
use mcp_attr::server::{mcp_server, McpServer};
use mcp_attr::Result;

struct Dns;

#[mcp_server]
impl McpServer for Dns {
    /// Resolve a host name to its addresses.
    #[tool]
    async fn resolve(&self, host: String) -> Result<CallToolResult> {
        let addrs = match std::net::ToSocketAddrs::to_socket_addrs(&(host.as_str(), 0)) {
            Ok(addrs) => addrs.map(|a| a.ip().to_string()).collect::<Vec<_>>(),
            Err(_) => {
                return Ok(CallToolResult { //~ empty_error_content
                    content: vec![],
                    is_error: Some(true),
                    meta: Default::default(),
                })
            }
        };
        if addrs.is_empty() {
            return Ok(CallToolResult { //~ empty_error_content
                content: vec![TextContent::new("").into()],
                is_error: Some(true),
                meta: serde_json::Map::new(),
            });
        }
        Ok(addrs.join("\n").into())
    }

    /// Flush the local resolver cache.
    #[tool]
    async fn flush(&self) -> Result<CallToolResult> {
        // A success with no content.
        Ok(().into())
    }
}
