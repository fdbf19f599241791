//@ dep: serde_json = "1"
// A hand-rolled MCP server: a lookup miss on a session id the model passed back, answered with a
// plain `"result"` (no `"isError": true`), is a stale handle reported as success. With
// `"isError": true` the model learns the session is gone.
use std::collections::HashMap;

use serde_json::{json, Value};

pub struct Server {
    sessions: HashMap<String, Vec<String>>,
}

impl Server {
    fn run(&mut self, id: &Value, args: &Value) -> Value {
        let session = args["session"].as_str().unwrap_or_default();
        let command = args["command"].as_str().unwrap_or_default();
        match self.sessions.get_mut(session) {
            Some(history) => {
                history.push(command.to_string());
                json!({ "jsonrpc": "2.0", "id": id, "result": { "content": [{ "type": "text", "text": format!("ran {command}") }] } })
            }
            None => json!({ "jsonrpc": "2.0", "id": id, "result": { "content": [{ "type": "text", "text": format!("no session {session}") }] } }), //~ stale_handle_as_success
        }
    }

    fn close(&mut self, id: &Value, args: &Value) -> Value {
        let session = args["session"].as_str().unwrap_or_default();
        match self.sessions.remove(session) {
            Some(history) => json!({ "jsonrpc": "2.0", "id": id, "result": { "content": [{ "type": "text", "text": format!("closed after {} commands", history.len()) }] } }),
            None => json!({ "jsonrpc": "2.0", "id": id, "result": { "content": [{ "type": "text", "text": format!("session {session} expired; open a new one") }], "isError": true } }),
        }
    }

    pub fn handle(&mut self, request: &Value) -> Value {
        let id = &request["id"];
        match request["method"].as_str().unwrap_or_default() {
            "tools/call" => match request["params"]["name"].as_str().unwrap_or_default() {
                "run" => self.run(id, &request["params"]["arguments"]),
                "close" => self.close(id, &request["params"]["arguments"]),
                other => json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32602, "message": format!("Unknown tool: {other}") } }),
            },
            other => json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32601, "message": format!("method not found: {other}") } }),
        }
    }
}
