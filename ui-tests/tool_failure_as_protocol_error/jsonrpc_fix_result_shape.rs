//@ dep: serde_json = "1"
// A hand-rolled server whose tools answer with whole responses: a tool failure sent as the
// response's `"error"` member becomes the `"result"` member the server's own tool results have,
// `{"content": [{"type": "text", "text": <message>}], "isError": true}`, the `"jsonrpc"` and `"id"`
// members kept (a `"data"` member is dropped: MaybeIncorrect). An error object laid out over
// lines keeps its layout, and one that fit on its line goes under its key when the result would
// not; one with a comment inside gets no fix (the comment would go).
use serde_json::{json, Value};

fn weather(id: &Value, args: &Value) -> Value {
    let Some(city) = args.get("city").and_then(Value::as_str) else {
        return json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32603, "message": "a city is needed, such as \"Lyon\"" } }); //~ tool_failure_as_protocol_error
    };
    match std::fs::read_to_string(format!("/var/weather/{city}.txt")) {
        Ok(text) => json!({ "jsonrpc": "2.0", "id": id, "result": { "content": [{ "type": "text", "text": text }] } }),
        Err(e) => json!({ //~ tool_failure_as_protocol_error
            "jsonrpc": "2.0",
            "id": id,
            "error": {
                "code": -32603,
                "message": format!("no forecast for {city}: {e}"),
                "data": { "city": city }
            }
        }),
    }
}

fn sunrise(id: &Value) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32603, "message": "no sunrise data" } }) //~ tool_failure_as_protocol_error
}

fn forecast_age(id: &Value) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": { //~ tool_failure_as_protocol_error
        "code": -32603, // a stale forecast is the tool's failure
        "message": "the forecast is older than a day"
    } })
}

pub fn handle(request: &Value) -> Value {
    let id = &request["id"];
    match request["method"].as_str() {
        Some("tools/call") => {
            let args = &request["params"]["arguments"];
            match request["params"]["name"].as_str() {
                Some("weather") => weather(id, args),
                Some("forecast_age") => forecast_age(id),
                Some("sunrise") => sunrise(id),
                Some(other) => json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32602, "message": format!("Unknown tool: {other}") } }),
                None => json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32602, "message": "Unknown tool: (none)" } }),
            }
        }
        _ => json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32601, "message": "method not found" } }),
    }
}
