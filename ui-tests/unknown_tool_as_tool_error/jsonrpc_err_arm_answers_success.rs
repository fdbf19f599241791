//@ dep: serde_json = "1"
// A hand-rolled dispatcher failing with text answers an unknown tool with `Err(format!("Unknown
// tool: {name}"))`, and the `tools/call` route's one `Err(e)` arm answers every error with a
// success result (`{"success": false, "error": e}` as the text, no `isError`): the unknown tool
// is answered with a success tool result (and the route's answer is a failure sent as success).
use serde_json::{json, Value};

pub struct Server;

impl Server {
    fn create_session(&mut self, params: Option<Value>) -> Result<Value, String> {
        let params = params.ok_or("Missing parameters")?;
        let title = params["title"].as_str().ok_or("title must be a string")?;
        Ok(json!({ "success": true, "title": title }))
    }

    fn call_tool(&mut self, tool_name: &str, params: Option<Value>) -> Result<Value, String> {
        match tool_name {
            "create_session" => self.create_session(params),
            _ => Err(format!("Unknown tool: {}", tool_name)), //~ unknown_tool_as_tool_error
        }
    }

    pub fn handle(&mut self, request: &Value) -> Value {
        let id = request["id"].clone();
        let result = match request["method"].as_str() {
            Some("tools/call") => {
                let name = request["params"]["name"].as_str().unwrap_or_default().to_string();
                match self.call_tool(&name, request["params"].get("arguments").cloned()) {
                    Ok(value) => json!({ "content": [{ "type": "text", "text": value.to_string() }] }),
                    Err(e) => {
                        let error_json = json!({ "success": false, "error": e });
                        json!({ "content": [{ "type": "text", "text": error_json.to_string() }] }) //~ failure_as_success
                    }
                }
            }
            _ => return json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32601, "message": "Method not found" } }),
        };
        json!({ "jsonrpc": "2.0", "id": id, "result": result })
    }
}
