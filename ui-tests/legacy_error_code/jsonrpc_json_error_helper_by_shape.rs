//@ dep: serde_json = "1"
// A hand-rolled server's error helper is known by what its body builds, not by its name:
// `rpc_failure(id, code, message)` returns `json!({"jsonrpc": "2.0", "id": id, "error": {"code":
// code, "message": message}})` serialised, so each call is an error object with the caller's
// code (-32002 is the retired resource-not-found code). A helper of the same shape whose object
// is a result (`"result": ..`) takes no code, whatever the number it is given; and a bare
// `{"code", "message"}` object returned as the router's `Err`, which the serve loop sends as
// `"error": error`, is an error object by its JSON-RPC code (an HTTP API's `{"code": 404}` is
// not).
use serde_json::{json, Value};

fn rpc_failure(id: &Value, code: i64, message: &str) -> String {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } }).to_string()
}

fn rpc_reply(id: &Value, count: i64, note: &str) -> String {
    json!({ "jsonrpc": "2.0", "id": id, "result": { "count": count, "note": note } }).to_string()
}

fn read_resource(uri: &str) -> Result<Value, Value> {
    if uri.starts_with("mem://") {
        return Ok(json!({ "contents": [] }));
    }
    Err(json!({ "code": -32002, "message": format!("resource not found: {uri}") })) //~ legacy_error_code
}

fn upstream_status(uri: &str) -> Value {
    json!({ "code": 404, "message": format!("no page at {uri}") })
}

fn handle(method: &str, params: &Value) -> Result<Value, Value> {
    let uri = params["uri"].as_str().unwrap_or_default();
    match method {
        "resources/read" => read_resource(uri),
        "status" => Ok(upstream_status(uri)),
        _ => Err(json!({ "code": -32601, "message": format!("method not found: {method}") })),
    }
}

pub fn serve(request: &Value) -> String {
    let id = &request["id"];
    let method = request["method"].as_str().unwrap_or_default();
    match method {
        "resources/subscribe" => rpc_failure(id, -32002, "subscriptions need a session"), //~ legacy_error_code
        "stats" => rpc_reply(id, -32002, "counted"),
        "tools/call" => json!({ "jsonrpc": "2.0", "id": id, "result": { "content": [] } }).to_string(),
        _ => match handle(method, &request["params"]) {
            Ok(result) => json!({ "jsonrpc": "2.0", "id": id, "result": result }).to_string(),
            Err(error) => json!({ "jsonrpc": "2.0", "id": id, "error": error }).to_string(),
        },
    }
}
