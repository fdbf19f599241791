//@ dep: serde_json = "1"
// A hand-rolled server whose tool results come from one helper that takes the `isError` flag
// as a parameter (`wrap_response(&self, message, is_error) -> Value { json!({"content": [..],
// "isError": is_error}) }`): a call with a literal flag builds that answer, so the dispatcher's
// catch-all `wrap_response(&format!("Unknown tool: {}", name), true)` is an isError result for
// an unknown tool. A helper that words a summary per tool name (`match tool_name { "search" =>
// "..".to_string(), _ => format!("{} completed", ..) }`) routes nothing: its catch-all is no
// unknown-tool answer, though its text ends up in a success result.
use serde_json::{json, Value};

pub struct Common;

impl Common {
    pub fn wrap_response(&self, message: &str, is_error: bool) -> Value {
        json!({
            "content": [{ "type": "text", "text": message }],
            "isError": is_error
        })
    }

    pub fn summary(&self, tool_name: &str) -> String {
        match tool_name {
            "search" => "Search completed".to_string(),
            "count" => "Count completed".to_string(),
            _ => format!("{} completed", tool_name.replace('_', " ")),
        }
    }
}

pub struct Handlers {
    common: Common,
}

impl Handlers {
    fn search(&self, args: &Value) -> Result<Value, String> {
        let query = args["query"].as_str().ok_or("`query` must be a string")?;
        let text = format!("{}: {query}", self.common.summary("search"));
        Ok(self.common.wrap_response(&text, false))
    }

    pub fn call_tool(&self, name: &str, args: &Value) -> Result<Value, String> {
        match name {
            "search" => self.search(args),
            "count" => Ok(self.common.wrap_response(&self.common.summary(name), false)),
            _ => {
                let message = format!("Unknown tool: {}", name);
                Ok(self.common.wrap_response(&message, true)) //~ unknown_tool_as_tool_error
            }
        }
    }
}

pub fn handle(handlers: &Handlers, request: &Value) -> Value {
    let id = request["id"].clone();
    match request["method"].as_str() {
        Some("tools/call") => {
            let name = request["params"]["name"].as_str().unwrap_or_default();
            match handlers.call_tool(name, &request["params"]["arguments"]) {
                Ok(result) => json!({ "jsonrpc": "2.0", "id": id, "result": result }),
                Err(e) => json!({
                    "jsonrpc": "2.0",
                    "id": id,
                    "result": { "content": [{ "type": "text", "text": e }], "isError": true }
                }),
            }
        }
        _ => json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32601, "message": "Method not found" } }),
    }
}
