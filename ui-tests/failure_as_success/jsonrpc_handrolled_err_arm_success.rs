//@ dep: serde_json = "1"
// A hand-rolled MCP server: a `"result"` without `"isError": true` is a success. Built from the
// error in an `Err` arm of a tool, it reports a failure as success. With `"isError": true` it is
// right.
use serde_json::{json, Value};

fn text_result(id: &Value, text: String) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "result": { "content": [{ "type": "text", "text": text }] } })
}

fn error_result(id: &Value, text: String) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "result": { "content": [{ "type": "text", "text": text }], "isError": true } })
}

fn disk_free(id: &Value, args: &Value) -> Value {
    let path = args["path"].as_str().unwrap_or("/");
    match std::fs::metadata(path) {
        Ok(meta) => text_result(id, format!("{path}: {} bytes", meta.len())),
        Err(e) => json!({ "jsonrpc": "2.0", "id": id, "result": { "content": [{ "type": "text", "text": format!("Error: {e}") }] } }), //~ failure_as_success
    }
}

fn load(id: &Value) -> Value {
    match std::fs::read_to_string("/proc/loadavg") {
        Ok(text) => text_result(id, text),
        Err(e) => text_result(id, format!("cannot read /proc/loadavg: {e}")), //~ failure_as_success
    }
}

fn uptime(id: &Value) -> Value {
    match std::fs::read_to_string("/proc/uptime") {
        Ok(text) => text_result(id, text.split_whitespace().next().unwrap_or("0").to_string()),
        Err(e) => error_result(id, format!("cannot read /proc/uptime: {e}")),
    }
}

pub fn handle(request: &Value) -> Value {
    let id = &request["id"];
    match request["method"].as_str().unwrap_or_default() {
        "tools/call" => match request["params"]["name"].as_str().unwrap_or_default() {
            "disk_free" => disk_free(id, &request["params"]["arguments"]),
            "uptime" => uptime(id),
            "load" => load(id),
            other => json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32602, "message": format!("Unknown tool: {other}") } }),
        },
        other => json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32601, "message": format!("method not found: {other}") } }),
    }
}
