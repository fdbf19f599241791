//@ dep: serde = "1"
//@ dep: serde_json = "1"
// A hand-rolled MCP server's isError results with nothing to read: `"isError": true` with an
// empty `"content"` array or only a blank text block, in a `json!` body, and the same through the
// server's own serde structs (`CallToolResult { content: vec![], is_error: true }`, where the
// field names carry the meaning; `is_error` is a plain `bool` here). An empty success, and an
// error with text, are not this lint.
use serde::Serialize;
use serde_json::{json, Value};

#[derive(Serialize)]
struct TextBlock {
    #[serde(rename = "type")]
    kind: &'static str,
    text: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CallToolResult {
    content: Vec<TextBlock>,
    is_error: bool,
}

fn reply(id: &Value, result: impl Serialize) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "result": result })
}

fn lookup(id: &Value, args: &Value, env: &std::collections::HashMap<String, String>) -> Value {
    let Some(key) = args["key"].as_str() else {
        return reply(id, json!({ "content": [], "isError": true })); //~ empty_error_content
    };
    match env.get(key) {
        Some(value) => reply(id, json!({ "content": [{ "type": "text", "text": value }] })),
        None => reply(id, json!({ "content": [{ "type": "text", "text": "" }], "isError": true })), //~ empty_error_content
    }
}

fn set(id: &Value, args: &Value, env: &mut std::collections::HashMap<String, String>) -> Value {
    let (Some(key), Some(value)) = (args["key"].as_str(), args["value"].as_str()) else {
        return reply(id, CallToolResult { content: vec![], is_error: true }); //~ empty_error_content
    };
    if key.contains('=') {
        return reply(id, CallToolResult { content: vec![TextBlock { kind: "text", text: format!("key {key:?} must not contain '='") }], is_error: true });
    }
    env.insert(key.to_string(), value.to_string());
    // A success with no content is not an error result.
    reply(id, CallToolResult { content: vec![], is_error: false })
}

pub fn handle(request: &Value, env: &mut std::collections::HashMap<String, String>) -> Value {
    let id = &request["id"];
    match request["method"].as_str().unwrap_or_default() {
        "tools/call" => {
            let args = &request["params"]["arguments"];
            match request["params"]["name"].as_str().unwrap_or_default() {
                "get_env" => lookup(id, args, env),
                "set_env" => set(id, args, env),
                other => json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32602, "message": format!("Unknown tool: {other}") } }),
            }
        }
        other => json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32601, "message": format!("method not found: {other}") } }),
    }
}
