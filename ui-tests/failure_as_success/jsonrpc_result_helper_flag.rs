//@ dep: serde_json = "1"
// A hand-rolled server's tool results come from one helper that writes the `isError` flag it is
// given (`wrap_response(&self, message, is_error) -> Value { json!({"content": [..], "isError":
// is_error}) }`): a call passing `false` builds a success result. On a read's failure path
// (`Err(e) => Ok(wrap_response(&format!("Error: cannot read {path}: {e}"), false))`) that is a
// failure answered as success; the same call with the file's text on the `Ok` path is not, nor
// is `wrap_response(.., true)` on a failure.
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
        let query = match args["query"].as_str() {
            Some(q) => q,
            None => return Ok(self.common.wrap_response("`query` must be a string", true)),
        };
        let text = format!("{}: {query}", self.common.summary("search"));
        Ok(self.common.wrap_response(&text, false))
    }

    fn read(&self, args: &Value) -> Result<Value, String> {
        let path = args["path"].as_str().unwrap_or_default();
        match std::fs::read_to_string(path) {
            Ok(text) => Ok(self.common.wrap_response(&text, false)),
            Err(e) => Ok(self.common.wrap_response(&format!("Error: cannot read {path}: {e}"), false)), //~ failure_as_success
        }
    }

    pub fn call_tool(&self, name: &str, args: &Value) -> Result<Value, String> {
        match name {
            "read" => self.read(args),
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
