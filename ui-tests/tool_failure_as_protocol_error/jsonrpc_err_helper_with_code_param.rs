//@ dep: serde_json = "1"
// A hand-rolled server answering every protocol error through `err(id, code, message)`, a helper
// short-named for an error that builds `Response { error: Some(ErrorObj { code, message }) }`
// from its `code` parameter: each call is a JSON-RPC error with the caller's code, as the same
// struct literal written inline would be. The tool's failure sent as -32603 is MCP001, the
// unknown tool's -32603 MCP011. Not: `err_line(code, message)`, a helper of the same short name
// that only formats a log line, and the success answer `ok(id, value)`.
use serde_json::Value;

pub struct ErrorObj {
    pub code: i32,
    pub message: String,
}

pub struct Response {
    pub id: Value,
    pub result: Option<Value>,
    pub error: Option<ErrorObj>,
}

pub fn ok(id: Value, value: Value) -> Response {
    Response { id, result: Some(value), error: None }
}

pub fn err(id: Value, code: i32, message: impl Into<String>) -> Response {
    Response { id, result: None, error: Some(ErrorObj { code, message: message.into() }) }
}

fn err_line(code: i32, message: &str) -> String {
    format!("[{code}] {message}")
}

fn tools_call(params: &Value) -> Result<Value, String> {
    match params.get("name").and_then(|v| v.as_str()).unwrap_or("") {
        "read" => {
            let path = params.get("path").and_then(|v| v.as_str()).unwrap_or("README.md");
            std::fs::read_to_string(path)
                .map(Value::String)
                .map_err(|e| format!("cannot read {path}: {e}"))
        }
        other => Err(format!("unknown tool: {other}")), //~ unknown_tool_wrong_code
    }
}

pub fn handle(id: Value, method: &str, params: &Value) -> Option<Response> {
    match method {
        "tools/call" => Some(match tools_call(params) {
            Ok(v) => ok(id, v),
            Err(e) => {
                eprintln!("{}", err_line(-32603, &e));
                err(id, -32603, e) //~ tool_failure_as_protocol_error
            }
        }),
        _ => None,
    }
}
