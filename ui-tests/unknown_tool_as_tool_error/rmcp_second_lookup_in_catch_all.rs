//@ rmcp = "1.8"
// A dispatcher whose catch-all looks the name up a second time (`other => if let Some(p) =
// self.promoted.iter().find(|p| p.name == other) { .. } else { .. }`): what that lookup finds is
// a tool, so its answers are not the unknown tool's; only the `else` is. A helper that answers a
// value as an isError or a success result by what the value says (`if is_error(&v) {
// structured_error(v) } else { structured(v) }`) answers neither way for sure: a failure value
// handed to it is not a failure answered as success.
use rmcp::{
    model::*, service::RequestContext, ErrorData as McpError, RoleServer, ServerHandler,
};
use serde_json::{json, Value};

pub struct Promoted {
    pub name: String,
}

pub struct Server {
    promoted: Vec<Promoted>,
    legacy: Vec<Promoted>,
}

fn run(p: &Promoted) -> Value {
    serde_json::to_value(&p.name).unwrap_or_else(|e| json!({ "error": e.to_string() }))
}

fn from_envelope(v: Value) -> CallToolResult {
    if v.get("error").is_some() {
        CallToolResult::structured_error(v)
    } else {
        CallToolResult::structured(v)
    }
}

impl ServerHandler for Server {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        match request.name.as_ref() {
            "ping" => Ok(CallToolResult::success(vec![Content::text("pong")])),
            "legacy" => Ok(CallToolResult::success(vec![Content::text("use ping")])),
            other => {
                if let Some(p) = self.promoted.iter().find(|p| p.name == other) {
                    Ok(from_envelope(run(p)))
                } else if let Some(p) = self.legacy.iter().find(|p| p.name == other) {
                    Ok(CallToolResult::success(vec![Content::text(format!("{} moved", p.name))]))
                } else {
                    Ok(CallToolResult::error(vec![Content::text(format!("unknown tool: {other}"))])) //~ unknown_tool_as_tool_error
                }
            }
        }
    }
}
