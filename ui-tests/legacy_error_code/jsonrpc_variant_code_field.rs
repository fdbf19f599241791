//@ dep: serde_json = "1"
// Hand-rolled JSON-RPC: a variant of the crate's error enum that carries a JSON-RPC code and
// message (`PdError::Rpc { code: -32001, message }`), sent by the serve loop as the error
// object's code, is a protocol error built where the variant is: -32001 is a legacy code, and a
// tool's argument check sent so is a tool failure. A code in JSON-RPC's reserved range says what
// the value is; an upstream HTTP API's `Upstream { code: 404, message }` is not one, and the
// unknown tool's -32602 is the right answer.
use serde_json::{json, Value};
use std::io::BufRead;

#[derive(Debug)]
pub enum PdError {
    Rpc { code: i64, message: String },
    Upstream { code: u16, message: String },
}

fn rpc_error(id: Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

fn ack(incident: &str) -> Result<Value, PdError> {
    if incident.is_empty() {
        return Err(PdError::Rpc { //~ tool_failure_as_protocol_error
            code: -32001, //~ legacy_error_code
            message: "incident id is required".into(),
        });
    }
    Err(PdError::Upstream {
        code: 404,
        message: format!("pagerduty has no incident {incident}"),
    })
}

fn call_tool(params: &Value) -> Result<Value, PdError> {
    let name = params["name"].as_str().unwrap_or_default();
    match name {
        "ack" => ack(params["arguments"]["incident"].as_str().unwrap_or_default()),
        other => Err(PdError::Rpc { code: -32602, message: format!("unknown tool {other}") }),
    }
}

fn handle(req: &Value) -> Value {
    let id = req["id"].clone();
    match req["method"].as_str() {
        Some("tools/call") => match call_tool(&req["params"]) {
            Ok(v) => json!({"jsonrpc": "2.0", "id": id, "result": v}),
            Err(PdError::Rpc { code, message }) => rpc_error(id, code, &message),
            Err(PdError::Upstream { message: m, .. }) => json!({"jsonrpc": "2.0", "id": id, "result": {"content": [{"type": "text", "text": m}], "isError": true}}),
        },
        _ => rpc_error(id, -32601, "method not found"),
    }
}

fn main() {
    for line in std::io::stdin().lock().lines() {
        let req: Value = serde_json::from_str(&line.unwrap()).unwrap();
        println!("{}", handle(&req));
    }
}
