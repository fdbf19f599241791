//@ dep: serde = "1"
//@ dep: serde_json = "1"
// A hand-rolled MCP server (no SDK, stdio, `serde_json`): the `"tools/call"` arm of the dispatch
// over the JSON-RPC method, and every function it reaches, are tool context. There, a response
// with an `"error"` member (built with `json!`, with a shared `error_response(id, code, msg)`
// helper, or with serde structs whose field names say `code`/`message`/`error`) is a protocol
// error: -32603 for a tool's own failure is this lint, at the `json!` call, the helper call, or
// the struct literal. A result with `"isError": true` is right, and so are protocol errors from the
// other methods (parse errors, unknown methods), which reach the same helper. The helper is shared
// with non-tool code, so it is reported at the tools' call sites, not inside.
use std::io::{BufRead, Write};

use serde::Serialize;
use serde_json::{json, Value};

#[derive(Serialize)]
struct JsonRpcError {
    code: i64,
    message: String,
}

#[derive(Serialize)]
struct JsonRpcResponse {
    jsonrpc: &'static str,
    id: Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    result: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<JsonRpcError>,
}

fn error_response(id: Value, code: i64, message: &str) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } })
}

fn tool_result(id: Value, text: String) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "result": { "content": [{ "type": "text", "text": text }] } })
}

fn tool_error(id: Value, text: String) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "result": { "content": [{ "type": "text", "text": text }], "isError": true } })
}

fn read_file(id: Value, args: &Value) -> Value {
    let path = args["path"].as_str().unwrap_or_default();
    match std::fs::read_to_string(path) {
        Ok(text) => tool_result(id, text),
        Err(e) => error_response(id, -32603, &format!("cannot read {path}: {e}")), //~ tool_failure_as_protocol_error
    }
}

fn write_file(id: Value, args: &Value) -> Value {
    let path = args["path"].as_str().unwrap_or_default();
    let content = args["content"].as_str().unwrap_or_default();
    if let Err(e) = std::fs::write(path, content) {
        return json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32603, "message": format!("cannot write {path}: {e}") } }); //~ tool_failure_as_protocol_error
    }
    tool_result(id, format!("wrote {} bytes to {path}", content.len()))
}

fn list_dir(id: Value, args: &Value) -> JsonRpcResponse {
    let path = args["path"].as_str().unwrap_or(".");
    match std::fs::read_dir(path) {
        Ok(entries) => {
            let names: Vec<String> = entries.filter_map(|e| e.ok()).map(|e| e.file_name().to_string_lossy().into_owned()).collect();
            JsonRpcResponse { jsonrpc: "2.0", id, result: Some(json!({ "content": [{ "type": "text", "text": names.join("\n") }] })), error: None }
        }
        Err(e) => JsonRpcResponse {
            jsonrpc: "2.0",
            id,
            result: None,
            error: Some(JsonRpcError { code: -32603, message: format!("cannot list {path}: {e}") }), //~ tool_failure_as_protocol_error
        },
    }
}

fn delete_file(id: Value, args: &Value) -> Value {
    let path = args["path"].as_str().unwrap_or_default();
    match std::fs::remove_file(path) {
        Ok(()) => tool_result(id, format!("deleted {path}")),
        // Right: the model reads this.
        Err(e) => tool_error(id, format!("cannot delete {path}: {e}")),
    }
}

fn handle_tools_call(id: Value, params: &Value) -> Value {
    let args = &params["arguments"];
    match params["name"].as_str().unwrap_or_default() {
        "read_file" => read_file(id, args),
        "write_file" => write_file(id, args),
        "list_dir" => serde_json::to_value(list_dir(id, args)).unwrap_or_default(),
        "delete_file" => delete_file(id, args),
        other => error_response(id, -32602, &format!("Unknown tool: {other}")),
    }
}

fn main() -> std::io::Result<()> {
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout();
    for line in stdin.lock().lines() {
        let line = line?;
        let request: Value = match serde_json::from_str(&line) {
            Ok(request) => request,
            Err(e) => {
                writeln!(stdout, "{}", error_response(Value::Null, -32700, &format!("invalid JSON: {e}")))?;
                continue;
            }
        };
        let id = request["id"].clone();
        let method = request["method"].as_str().unwrap_or_default().to_string();
        let response = match method.as_str() {
            "initialize" => json!({
                "jsonrpc": "2.0",
                "id": id,
                "result": { "protocolVersion": "2025-11-25", "capabilities": { "tools": {} }, "serverInfo": { "name": "files", "version": "0.1.0" } }
            }),
            "tools/list" => json!({ "jsonrpc": "2.0", "id": id, "result": { "tools": [] } }),
            "tools/call" => handle_tools_call(id, &request["params"]),
            "notifications/initialized" => continue,
            _ => error_response(id, -32601, &format!("method not found: {method}")),
        };
        writeln!(stdout, "{response}")?;
        stdout.flush()?;
    }
    Ok(())
}
