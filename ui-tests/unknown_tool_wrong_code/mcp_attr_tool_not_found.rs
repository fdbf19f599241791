//@ dep: mcp-attr = "0.0.7"
//@ dep: serde_json = "1"
// mcp-attr 0.0.7, hand-written `McpServer::tools_call`: the SDK's helper for the unknown-tool
// answer, `mcp_attr::server::errors::tool_not_found(name)`, is -32601 with the fixed message "Tool
// not found" (it ignores `name`): the wrong code and no tool name, one finding at the call. The
// `#[mcp_server]` macro generates the same fallback for `#[tool]` fns; that one lives in the
// expansion and is never reported. `Error::new(ErrorCode::INVALID_PARAMS)` with "Unknown tool:
// <name>" is the spec's answer.
use mcp_attr::schema::{CallToolRequestParams, CallToolResult, ListToolsRequestParams, ListToolsResult, Tool};
use mcp_attr::server::errors::tool_not_found;
use mcp_attr::server::{mcp_server, McpServer, RequestContext};
use mcp_attr::{Error, ErrorCode, Result};

fn tool(name: &str, description: &str) -> Result<Tool> {
    Ok(serde_json::from_value(serde_json::json!({
        "name": name,
        "description": description,
        "inputSchema": { "type": "object", "properties": {} }
    }))?)
}

/// Tools loaded at run time, so `#[tool]` cannot describe them.
struct Scripts {
    names: Vec<String>,
}

impl McpServer for Scripts {
    async fn tools_list(&self, _p: ListToolsRequestParams, _cx: &mut RequestContext) -> Result<ListToolsResult> {
        let tools = self.names.iter().map(|n| tool(n, "Run a script")).collect::<Result<Vec<_>>>()?;
        Ok(tools.into())
    }

    async fn tools_call(&self, p: CallToolRequestParams, _cx: &mut RequestContext) -> Result<CallToolResult> {
        match self.names.iter().find(|n| **n == p.name) {
            Some(name) => Ok(format!("ran {name}").into()),
            None => Err(tool_not_found(&p.name)), //~ unknown_tool_wrong_code
        }
    }
}

struct Builtins;

impl McpServer for Builtins {
    async fn tools_call(&self, p: CallToolRequestParams, _cx: &mut RequestContext) -> Result<CallToolResult> {
        match p.name.as_str() {
            "version" => Ok(env!("CARGO_PKG_VERSION").into()),
            "uptime" => Ok(format!("{:?}", std::time::Instant::now().elapsed()).into()),
            _ => Err(tool_not_found(&p.name)), //~ unknown_tool_wrong_code
        }
    }
}

struct StrictScripts {
    names: Vec<String>,
}

impl McpServer for StrictScripts {
    async fn tools_call(&self, p: CallToolRequestParams, _cx: &mut RequestContext) -> Result<CallToolResult> {
        match p.name.as_str() {
            "version" => Ok(env!("CARGO_PKG_VERSION").into()),
            name if self.names.iter().any(|n| n == name) => Ok(format!("ran {name}").into()),
            name => Err(Error::new(ErrorCode::INVALID_PARAMS).with_message(format!("Unknown tool: {name}"), true)),
        }
    }
}

/// The macro's generated `tools_call` answers unknown tools itself.
struct Echo;

#[mcp_server]
impl McpServer for Echo {
    /// Echo a message back.
    #[tool]
    async fn echo(&self, message: String) -> Result<String> {
        Ok(message)
    }
}
