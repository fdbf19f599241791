//@ dep: serde_json = "1"
// A -32602 that a helper returns is not the tool's protocol error when its caller answers it
// itself: `Err(e) => return Ok(tool_error_result(&e))` (a crate fn that makes an isError result
// of it), `Ok(tool_error_result(&suggest(..)))`, `if let Err(e) = .. { return Ok(..) }`, or
// `.ok()`. The same helpers are reported where their error is passed on: `?`, `Err(e) =>
// return Err(e)`, a value given to a crate fn that builds a JSON-RPC error of it
// (`error_value(id, e.code, ..)`). Also not: "Tool {name} not found", the unknown-tool answer a
// helper router gives outside a `_ =>` arm, and a helper's "missing {name}" for an argument the
// schema requires (schema-level).
use serde_json::{json, Value};

const INVALID_PARAMS: i32 = -32602;

struct RpcError {
    code: i32,
    message: String,
}

impl RpcError {
    fn invalid_params(m: impl Into<String>) -> Self {
        Self { code: INVALID_PARAMS, message: m.into() }
    }
}

fn tool_error_result(error: &RpcError) -> Value {
    json!({"content": [{"type": "text", "text": format!("Error: {}", error.message)}], "isError": true})
}

fn error_value(id: &Value, code: i32, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

fn parse_tier(args: &Value) -> Result<u8, RpcError> {
    match args.get("tier").and_then(Value::as_str).unwrap_or("l1") {
        "l0" => Ok(0),
        "l1" => Ok(1),
        other => Err(RpcError::invalid_params(format!("Invalid tier {other}: use l0 or l1"))),
    }
}

fn parse_depth(args: &Value) -> Result<u64, RpcError> {
    let depth = args.get("depth").and_then(Value::as_u64).unwrap_or(1);
    if depth > 5 {
        return Err(RpcError::invalid_params(format!("depth {depth} is above 5"))); //~ tool_input_as_invalid_params
    }
    Ok(depth)
}

fn parse_limit(args: &Value) -> Result<u64, RpcError> {
    let limit = args.get("limit").and_then(Value::as_u64).unwrap_or(10);
    if limit == 0 {
        return Err(RpcError::invalid_params("limit 0: use 1 or more")); //~ tool_input_as_invalid_params
    }
    Ok(limit)
}

fn parse_format(args: &Value) -> Result<String, RpcError> {
    match args.get("format").and_then(Value::as_str).unwrap_or("text") {
        f @ ("text" | "json") => Ok(f.to_string()),
        other => Err(RpcError::invalid_params(format!("format {other}: use text or json"))),
    }
}

fn suggest_mode(mode: &str) -> RpcError {
    RpcError::invalid_params(format!("Unknown mode {mode}: use fast or full"))
}

fn required_string(args: &Value, name: &str) -> Result<String, RpcError> {
    args.get(name)
        .and_then(Value::as_str)
        .map(str::to_string)
        .ok_or_else(|| RpcError::invalid_params(format!("missing {name}")))
}

fn tool_not_found(name: &str) -> RpcError {
    RpcError::invalid_params(format!("Tool {name} not found"))
}

fn search(args: &Value) -> Result<Value, RpcError> {
    let query = required_string(args, "query")?;
    let tier = match parse_tier(args) {
        Ok(tier) => tier,
        Err(error) => return Ok(tool_error_result(&error)),
    };
    if let Err(error) = parse_format(args) {
        return Ok(tool_error_result(&error));
    }
    let depth = parse_depth(args)?;
    let mode = args.get("mode").and_then(Value::as_str).unwrap_or("fast");
    if mode != "fast" && mode != "full" {
        return Ok(tool_error_result(&suggest_mode(mode)));
    }
    let limit = parse_limit(args).ok().unwrap_or(10);
    Ok(json!({"content": [{"type": "text", "text": format!("{query} {tier} {depth} {limit}")}]}))
}

fn count(id: &Value, args: &Value) -> Value {
    match parse_limit(args) {
        Ok(limit) => json!({"jsonrpc": "2.0", "id": id, "result": {"content": [{"type": "text", "text": limit.to_string()}]}}),
        Err(e) => error_value(id, e.code, &e.message),
    }
}

fn call_tool(id: &Value, params: &Value) -> Result<Value, RpcError> {
    let name = params.get("name").and_then(Value::as_str).unwrap_or("");
    let args = params.get("arguments").cloned().unwrap_or_else(|| json!({}));
    if name == "search" {
        search(&args)
    } else if name == "count" {
        Ok(count(id, &args))
    } else {
        Err(tool_not_found(name))
    }
}

pub fn handle(request: &Value) -> Value {
    let id = request.get("id").cloned().unwrap_or(Value::Null);
    match request.get("method").and_then(Value::as_str) {
        Some("tools/call") => match call_tool(&id, &request["params"]) {
            Ok(result) => json!({"jsonrpc": "2.0", "id": id, "result": result}),
            Err(e) => error_value(&id, e.code, &e.message),
        },
        _ => error_value(&id, -32601, "method not found"),
    }
}

fn main() {}
