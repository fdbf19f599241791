//@ dep: serde_json = "1"
//@ dep: anyhow = "1"
// A serve loop that maps a router's `Err` to a JSON-RPC error answers a tool's failure only when
// the router's `"tools/call"` arm can fail. `stdio_router` answers every tool failure as an isError
// result itself (`Ok(..)` on every path of its arm), so `stdio_loop`'s -32603 answers only the
// other methods' failures: not reported. `http_router` passes the tool's `Err` on with `?`, so
// `http_loop`'s -32603 is a tool's failure sent as a protocol error.
use serde_json::{json, Value};

fn run_tool(params: &Value) -> Result<Value, String> {
    let path = params["arguments"]["path"].as_str().unwrap_or_default();
    std::fs::read_to_string(path)
        .map(|text| json!({ "content": [{ "type": "text", "text": text }] }))
        .map_err(|e| format!("could not read {path}: {e}"))
}

fn as_tool_result(result: Result<Value, String>) -> Value {
    match result {
        Ok(value) => value,
        Err(message) => json!({ "content": [{ "type": "text", "text": message }], "isError": true }),
    }
}

fn stdio_router(request: &Value) -> anyhow::Result<Value> {
    match request["method"].as_str().unwrap_or_default() {
        "initialize" => {
            let version: String = serde_json::from_value(request["params"]["protocolVersion"].clone())?;
            Ok(json!({ "protocolVersion": version }))
        }
        "tools/call" => {
            let result = run_tool(&request["params"]);
            Ok(as_tool_result(result))
        }
        method => anyhow::bail!("method not found: {method}"),
    }
}

pub fn stdio_loop(request: &Value) -> Value {
    let id = request["id"].clone();
    match stdio_router(request) {
        Ok(result) => json!({ "jsonrpc": "2.0", "id": id, "result": result }),
        Err(e) => json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32603, "message": e.to_string() } }),
    }
}

fn http_router(request: &Value) -> anyhow::Result<Value> {
    match request["method"].as_str().unwrap_or_default() {
        "tools/call" => {
            let value = run_tool(&request["params"]).map_err(anyhow::Error::msg)?;
            Ok(value)
        }
        method => anyhow::bail!("method not found: {method}"),
    }
}

pub fn http_loop(request: &Value) -> Value {
    let id = request["id"].clone();
    match http_router(request) {
        Ok(result) => json!({ "jsonrpc": "2.0", "id": id, "result": result }),
        Err(e) => json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32603, "message": e.to_string() } }), //~ tool_failure_as_protocol_error
    }
}

fn main() {}
