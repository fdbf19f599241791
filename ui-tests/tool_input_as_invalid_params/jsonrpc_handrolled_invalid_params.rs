//@ dep: serde_json = "1"
// A hand-rolled MCP server: `"code": -32602` (literal, or a const passed to the response helper)
// rejecting an argument *value* inside a tool is this lint. Not: the schema-level rejections in
// the `tools/call` dispatcher (no `arguments` object, a required field absent or of the wrong
// JSON type), which the 2026-07-28 schema still answers with -32602, the unknown-tool answer, and
// any -32602 in the `tools/call` arm itself, before a tool is chosen.
use serde_json::{json, Value};

const INVALID_PARAMS: i64 = -32602;

fn rpc_error(id: &Value, code: i64, message: String) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } })
}

fn rpc_result(id: &Value, result: Value) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "result": result })
}

fn resize(id: &Value, args: &serde_json::Map<String, Value>) -> Value {
    let width = args.get("width").and_then(Value::as_u64).unwrap_or_default();
    if width == 0 || width > 8192 {
        return rpc_error(id, INVALID_PARAMS, format!("width must be 1..=8192, got {width}")); //~ tool_input_as_invalid_params
    }
    let format = args.get("format").and_then(Value::as_str).unwrap_or("png");
    if !["png", "jpeg", "webp"].contains(&format) {
        return json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32602, "message": format!("format must be png, jpeg or webp, got {format}") } }); //~ tool_input_as_invalid_params
    }
    rpc_result(id, json!({ "content": [{ "type": "text", "text": format!("resized to {width}px as {format}") }] }))
}

pub fn handle(request: &Value) -> Value {
    let id = &request["id"];
    match request["method"].as_str() {
        Some("tools/call") => {
            let Some(args) = request["params"]["arguments"].as_object() else {
                return rpc_error(id, INVALID_PARAMS, "tools/call needs an `arguments` object".to_string());
            };
            match request["params"]["name"].as_str() {
                Some("resize") => {
                    if args.get("width").is_none() {
                        return rpc_error(id, INVALID_PARAMS, "resize: `width` is required".to_string());
                    }
                    resize(id, args)
                }
                Some(other) => rpc_error(id, INVALID_PARAMS, format!("Unknown tool: {other}")),
                None => rpc_error(id, INVALID_PARAMS, "tools/call needs a tool `name`".to_string()),
            }
        }
        Some("tools/list") => rpc_result(id, json!({ "tools": [{ "name": "resize", "inputSchema": { "type": "object" } }] })),
        _ => rpc_error(id, -32601, format!("method not found: {}", request["method"])),
    }
}

pub struct Tools;

/// The same dispatcher behind an adapter that may have no tools: in the `tools/call` arm itself,
/// before a tool is chosen, -32602 rejects the request (here the server's own condition), not
/// an argument of a tool.
pub fn handle_adapted(request: &Value, tools: Option<&Tools>) -> Value {
    let id = &request["id"];
    match request["method"].as_str() {
        Some("tools/call") => match tools {
            Some(_) => handle(request),
            None => rpc_error(id, INVALID_PARAMS, "this adapter serves no tool context".to_string()),
        },
        _ => rpc_error(id, -32601, format!("method not found: {}", request["method"])),
    }
}
