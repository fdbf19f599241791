//@ rmcp = "0.13"
//@ dep: serde_json = "1"
// A `-> String` tool answering a lookup miss through a crate helper that builds a `json!` error
// (`error_response("not_found", format!("Snapshot '{name}' not found"))`): the text the call
// hands the helper says the thing is not there, so the miss is a stale name answered as success
// (MCP008), reported once, not also as MCP009. A miss answered as data ("no bookmark titled ..",
// `{"found": false}`) is the tool's answer, and a poisoned lock's guard taken back
// (`.unwrap_or_else(|e| e.into_inner())`) is no answer at all (MCP009 stays silent).
use rmcp::{handler::server::wrapper::Parameters, schemars, tool, tool_router};
use serde_json::json;
use std::collections::HashMap;
use std::sync::RwLock;

fn error_response(kind: &str, message: impl Into<String>) -> String {
    json!({ "error": kind, "message": message.into() }).to_string()
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Snapshot {
    pub name: String,
}

pub struct Desktop {
    snapshots: RwLock<HashMap<String, String>>,
}

#[tool_router]
impl Desktop {
    #[tool(description = "Save the UI tree as a named snapshot")]
    async fn save_snapshot(&self, Parameters(s): Parameters<Snapshot>) -> String {
        if let Ok(mut store) = self.snapshots.write() {
            store.insert(s.name.clone(), String::from("{}"));
        }
        json!({ "saved": s.name }).to_string()
    }

    #[tool(description = "Load a snapshot saved by save_snapshot")]
    async fn load_snapshot(&self, Parameters(s): Parameters<Snapshot>) -> String {
        let store = match self.snapshots.read() {
            Ok(store) => store,
            Err(_) => return error_response("lock_error", "Failed to acquire snapshot lock"), //~ failure_as_success
        };
        match store.get(&s.name) {
            Some(tree) => tree.clone(),
            None => error_response("not_found", format!("Snapshot '{}' not found", s.name)), //~ stale_handle_as_success
        }
    }

    #[tool(description = "List the snapshots whose name starts with a prefix")]
    async fn find_snapshot(&self, Parameters(s): Parameters<Snapshot>) -> String {
        let store = self.snapshots.read().unwrap_or_else(|e| e.into_inner());
        match store.get(&s.name) {
            Some(tree) => tree.clone(),
            None => json!({ "found": false, "name": s.name }).to_string(),
        }
    }
}
