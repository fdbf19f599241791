//@ dep: serde_json = "1"
// A hand-rolled server reading one argument in either of two JSON types: `if let Some(n) =
// v.as_u64() { .. } else if let Some(s) = v.as_str() { .. } else { .. }`. Only the last `else`
// refuses the argument's shape, which its hand-written schema answers with -32602; what fails
// inside the `else if let` branch (parsing the string it holds) is a check of the value.
use serde_json::{json, Value};

const INVALID_PARAMS: i64 = -32602;

fn rpc_error(id: &Value, code: i64, message: String) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } })
}

fn rpc_result(id: &Value, result: Value) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "result": result })
}

fn read_raw(id: &Value, args: &serde_json::Map<String, Value>) -> Value {
    let offset: u64 = if let Some(n) = args.get("offset").and_then(Value::as_u64) {
        n
    } else if let Some(s) = args.get("offset").and_then(Value::as_str) {
        match s.trim().strip_prefix("0x") {
            Some(hex) => match u64::from_str_radix(hex, 16) {
                Ok(n) => n,
                Err(e) => return rpc_error(id, INVALID_PARAMS, format!("offset {s:?} is not hex: {e}")), //~ tool_input_as_invalid_params
            },
            None => match s.parse::<u64>() {
                Ok(n) => n,
                Err(e) => return rpc_error(id, INVALID_PARAMS, format!("offset {s:?} is not a number: {e}")), //~ tool_input_as_invalid_params
            },
        }
    } else {
        return rpc_error(id, INVALID_PARAMS, "offset must be a number or a string".to_string());
    };
    rpc_result(id, json!({ "content": [{ "type": "text", "text": format!("read at {offset}") }] }))
}

pub fn handle(request: &Value) -> Value {
    let id = &request["id"];
    match request["method"].as_str() {
        Some("tools/call") => {
            let Some(args) = request["params"]["arguments"].as_object() else {
                return rpc_error(id, INVALID_PARAMS, "tools/call needs an `arguments` object".to_string());
            };
            match request["params"]["name"].as_str() {
                Some("read_raw") => read_raw(id, args),
                Some(other) => rpc_error(id, INVALID_PARAMS, format!("Unknown tool: {other}")),
                None => rpc_error(id, INVALID_PARAMS, "tools/call needs a tool `name`".to_string()),
            }
        }
        Some("tools/list") => rpc_result(id, json!({ "tools": [{ "name": "read_raw", "inputSchema": { "type": "object", "properties": { "offset": { "type": ["integer", "string"] } }, "required": ["offset"] } }] })),
        _ => rpc_error(id, -32601, format!("method not found: {}", request["method"])),
    }
}
