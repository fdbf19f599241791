//@ dep: serde_json = "1"
// A hand-rolled server that routes methods with `if request.method == "tools/call" { .. }`
// blocks and answers inside them: the `"tools/call"` block answers tool calls, so a handler's
// failure sent as a JSON-RPC error there is this lint's (and its legacy code MCP004's), and the
// registry's miss answered -32601 is unknown_tool_wrong_code's. Not: the same answers in the
// `"resources/read"` block, which answers no tool.
use std::collections::HashMap;

use serde_json::{json, Value};

pub struct Request {
    pub id: Value,
    pub method: String,
    pub params: Value,
}

type Handler = fn(&Value) -> Result<Value, String>;

pub struct Server {
    tools: HashMap<String, Handler>,
    resources: HashMap<String, String>,
}

fn error(id: Value, code: i32, message: String) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } })
}

impl Server {
    pub fn handle(&self, request: Request) -> Value {
        if request.method == "tools/call" {
            let tool_name = request.params["name"].as_str().unwrap_or_default();
            let arguments = request.params["arguments"].clone();
            if let Some(handler) = self.tools.get(tool_name) {
                return match handler(&arguments) {
                    Ok(v) => json!({ "jsonrpc": "2.0", "id": request.id, "result": { "content": [{ "type": "text", "text": v.to_string() }] } }),
                    //~v legacy_error_code
                    Err(e) => json!({ "jsonrpc": "2.0", "id": request.id, "error": { "code": -32000, "message": e } }), //~ tool_failure_as_protocol_error
                };
            } else {
                return json!({ "jsonrpc": "2.0", "id": request.id, "error": { "code": -32601, "message": format!("Tool not found: {tool_name}") } }); //~ unknown_tool_wrong_code
            }
        }
        if request.method == "resources/read" {
            let uri = request.params["uri"].as_str().unwrap_or_default();
            return match self.resources.get(uri) {
                Some(text) => json!({ "jsonrpc": "2.0", "id": request.id, "result": { "contents": [{ "uri": uri, "text": text }] } }),
                None => error(request.id, -32602, format!("Resource not found: {uri}")),
            };
        }
        error(request.id, -32601, format!("Method not found: {}", request.method))
    }
}
