//@ dep: serde_json = "1"
// A hand-rolled server whose error type has its own constructors: `RpcError::invalid_params(m)`
// returns `Self { code: INVALID_PARAMS, message: m.into() }`, tools return `Err(..)` of it and
// the loop sends `error_value(id, e.code, e.message)`. Each call is that construction, judged
// where it is written (also point-free in `.map_err(RpcError::invalid_params)`, and through
// `RpcError::new(code, ..)` with the code given). Not: `Report::invalid_params`, a constructor of
// the same name on a type that is no JSON-RPC error; the argument helpers' answers for an absent
// argument or one of the wrong JSON type (schema-level); decoding the server's own output buffer
// (a server fault, -32603 is right there); the constructors' uses outside tool code.
use serde_json::{json, Value};

const INVALID_PARAMS: i32 = -32602;
const INTERNAL_ERROR: i32 = -32603;

struct RpcError {
    code: i32,
    message: String,
}

impl RpcError {
    fn invalid_params(m: impl Into<String>) -> Self {
        Self { code: INVALID_PARAMS, message: m.into() }
    }
    fn internal(m: impl Into<String>) -> Self {
        Self { code: INTERNAL_ERROR, message: m.into() }
    }
    fn new(code: i32, message: String) -> Self {
        RpcError { code, message }
    }
}

/// A log record, not an error sent to the client.
struct Report {
    level: u8,
    text: String,
}

impl Report {
    fn invalid_params(text: &str) -> Self {
        Report { level: 2, text: text.to_string() }
    }
}

fn error_value(id: Value, code: i32, message: String) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

pub fn handle_one(req: &Value) -> Value {
    let id = req.get("id").cloned().unwrap_or(Value::Null);
    let method = req.get("method").and_then(Value::as_str).unwrap_or("");
    let params = req.get("params").cloned().unwrap_or_else(|| json!({}));
    match dispatch(method, &params) {
        Ok(val) => json!({"jsonrpc": "2.0", "id": id, "result": val}),
        Err(e) => error_value(id, e.code, e.message),
    }
}

fn dispatch(method: &str, params: &Value) -> Result<Value, RpcError> {
    match method {
        "tools/call" => {
            let name = params
                .get("name")
                .and_then(Value::as_str)
                .ok_or_else(|| RpcError::invalid_params("'name' required in tools/call"))?;
            let args = params.get("arguments").cloned().unwrap_or_else(|| json!({}));
            match name {
                "generate" => tool_generate(&args),
                other => Err(RpcError::invalid_params(format!("unknown tool: {other}"))),
            }
        }
        other => Err(RpcError::new(-32601, format!("unknown method: {other}"))),
    }
}

fn opt_u64(v: &Value, key: &str) -> Result<Option<u64>, RpcError> {
    match v.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) => n.as_u64().map(Some).ok_or_else(|| {
            RpcError::invalid_params(format!("'{key}' must be a non-negative integer")) //~ tool_input_as_invalid_params
        }),
        Some(_) => Err(RpcError::invalid_params(format!("'{key}' must be an integer"))),
    }
}

fn opt_str<'a>(v: &'a Value, key: &str) -> Result<Option<&'a str>, RpcError> {
    match v.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.as_str())),
        Some(_) => Err(RpcError::invalid_params(format!("'{key}' must be a string"))),
    }
}

fn render(n: u64, out: &mut Vec<u8>) -> Result<(), String> {
    if n == 13 {
        return Err("unlucky".to_string());
    }
    out.extend_from_slice(n.to_string().as_bytes());
    Ok(())
}

fn tool_generate(args: &Value) -> Result<Value, RpcError> {
    let n = opt_u64(args, "n")?.unwrap_or(1);
    if n > 1000 {
        return Err(RpcError::invalid_params(format!("'n' must not exceed 1000, got {n}"))); //~ tool_input_as_invalid_params
    }
    let shape = opt_str(args, "shape")?.ok_or_else(|| RpcError::invalid_params("'shape' required"))?;
    let sides: u32 = shape.parse().map_err(RpcError::invalid_params)?; //~ tool_input_as_invalid_params
    if sides == 1 {
        return Err(RpcError::new(-32602, format!("a shape needs 2 or more sides, got {sides}"))); //~ tool_input_as_invalid_params
    }
    if sides == 2 {
        let _ = Report::invalid_params("two-sided shapes are unusual");
    }
    let mut buf: Vec<u8> = Vec::with_capacity(64);
    render(n, &mut buf).map_err(|e| RpcError::internal(format!("rendering failed: {e}")))?; //~ tool_failure_as_protocol_error
    let s = String::from_utf8(buf).map_err(|e| RpcError::internal(format!("non-utf8 output: {e}")))?;
    Ok(json!({"content": [{"type": "text", "text": s}]}))
}

fn main() {
    let _ = RpcError::invalid_params("start-up: no config");
    let _ = handle_one(&json!({}));
}
