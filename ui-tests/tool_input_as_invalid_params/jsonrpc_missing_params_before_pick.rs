//@ dep: serde_json = "1"
// A hand-rolled tools/call handler that rejects a request without `params` (or without a tool
// name) before it picks a tool rejects the request's shape: -32602 is the spec's answer there.
// Once a tool is picked, -32602 for a value of its arguments is a tool failure.
use serde_json::{json, Value};

fn run(name: &str, args: &Value) -> Value {
    match name {
        "repeat" => {
            let times = args.get("times").and_then(Value::as_u64).unwrap_or(1);
            if times > 10 {
                return json!({ "error": { "code": -32602, "message": format!("times is {times}; at most 10") } }); //~ tool_input_as_invalid_params
            }
            json!({ "result": { "content": [{ "type": "text", "text": "ok".repeat(times as usize) }] } })
        }
        _ => json!({ "error": { "code": -32602, "message": format!("No tool named {name}") } }),
    }
}

fn handle_call(request: &Value) -> Value {
    let params = match request.get("params") {
        Some(p) => p,
        None => return json!({ "jsonrpc": "2.0", "id": request["id"].clone(), "error": { "code": -32602, "message": "tools/call without params" } }),
    };
    let name = match params.get("name").and_then(|v| v.as_str()) {
        Some(n) => n,
        None => return json!({ "jsonrpc": "2.0", "id": request["id"].clone(), "error": { "code": -32602, "message": "tools/call without a tool name" } }),
    };
    let mut answer = run(name, &params["arguments"]);
    answer["jsonrpc"] = json!("2.0");
    answer["id"] = request["id"].clone();
    answer
}

pub fn handle(request: Value) -> Value {
    match request["method"].as_str() {
        Some("tools/call") => handle_call(&request),
        _ => json!({ "jsonrpc": "2.0", "id": request["id"].clone(), "error": { "code": -32601, "message": "Method not found" } }),
    }
}
