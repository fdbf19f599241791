//@ dep: serde_json = "1"
//@ target-protocol: 2026-07-28
// A hand-rolled server whose supported versions stop at 2025-06-18, checked with an explicit
// target (config `target-protocol`, `--target-protocol`): the target wins over what the source
// declares, and the findings do not mention the declared version.
use serde_json::{json, Value};

static SUPPORTED_VERSIONS: [&str; 2] = ["2025-06-18", "2025-03-26"];
const QUOTA_EXCEEDED: i64 = -32010;

pub struct Server {
    calls_left: u32,
}

impl Server {
    pub fn handle(&mut self, id: Value, method: &str, params: &Value) -> Value {
        if self.calls_left == 0 {
            return json!({ "jsonrpc": "2.0", "id": id, "error": { "code": QUOTA_EXCEEDED, "message": "request quota used up until midnight UTC" } }); //~ legacy_error_code
        }
        self.calls_left -= 1;
        let result = match method {
            "initialize" => {
                let asked = params["protocolVersion"].as_str().unwrap_or(SUPPORTED_VERSIONS[0]);
                let version = if SUPPORTED_VERSIONS.contains(&asked) { asked } else { SUPPORTED_VERSIONS[0] };
                json!({ "protocolVersion": version, "capabilities": { "tools": {} } })
            }
            "tools/call" => json!({ "content": [{ "type": "text", "text": format!("{} requests left", self.calls_left) }] }),
            _ => return json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32601, "message": "method not found" } }),
        };
        json!({ "jsonrpc": "2.0", "id": id, "result": result })
    }
}
