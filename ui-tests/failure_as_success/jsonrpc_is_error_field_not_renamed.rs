//@ dep: serde = { version = "1", features = ["derive"] }
//@ dep: serde_json = "1"
// A hand-rolled result struct whose derived `Serialize` writes its flag as `"is_error"` (the
// field not renamed, no `rename_all = "camelCase"`): clients read `isError`, so a failure answered
// with `is_error: true` is a success result on the wire. Not reported: the same answer through a
// struct that renames the field, or renames all of them to camelCase.
use serde::Serialize;
use serde_json::{json, Value};

#[derive(Serialize)]
pub struct Text {
    #[serde(rename = "type")]
    pub kind: String,
    pub text: String,
}

#[derive(Serialize)]
pub struct CallToolResult {
    pub content: Vec<Text>,
    pub is_error: bool,
}

#[derive(Serialize)]
pub struct RenamedResult {
    pub content: Vec<Text>,
    #[serde(rename = "isError")]
    pub is_error: bool,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CamelResult {
    pub content: Vec<Text>,
    pub is_error: bool,
}

fn text(s: String) -> Vec<Text> {
    vec![Text { kind: "text".into(), text: s }]
}

fn respond(id: &Value, result: impl Serialize) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "result": serde_json::to_value(result).unwrap_or(Value::Null) })
}

fn call_tool(id: &Value, name: &str, path: &str) -> Value {
    match name {
        "read" => match std::fs::read_to_string(path) {
            Ok(s) => respond(id, CallToolResult { content: text(s), is_error: false }),
            Err(e) => respond(id, CallToolResult { content: text(format!("Error reading {path}: {e}")), is_error: true }), //~ failure_as_success
        },
        "stat" => match std::fs::metadata(path) {
            Ok(m) => respond(id, RenamedResult { content: text(format!("{} bytes", m.len())), is_error: false }),
            Err(e) => respond(id, RenamedResult { content: text(format!("Error reading {path}: {e}")), is_error: true }),
        },
        "list" => match std::fs::read_dir(path) {
            Ok(d) => respond(id, CamelResult { content: text(format!("{} entries", d.count())), is_error: false }),
            Err(e) => respond(id, CamelResult { content: text(format!("Error listing {path}: {e}")), is_error: true }),
        },
        other => json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32602, "message": format!("Unknown tool: {other}") } }),
    }
}

pub fn handle(request: &Value) -> Value {
    let id = &request["id"];
    let params = &request["params"];
    match request["method"].as_str() {
        Some("tools/call") => call_tool(
            id,
            params["name"].as_str().unwrap_or_default(),
            params["arguments"]["path"].as_str().unwrap_or_default(),
        ),
        _ => json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32601, "message": "Method not found" } }),
    }
}
