//@ rmcp = "1.8"
//@ dep: serde_json = "1"
// A `-> String` tool answering a failure through a crate helper whose value is a `json!` it
// builds (`fn error_response(code, msg) -> String { json!({"error": ..}).to_string() }`, also one
// level further: `fn not_connected() -> String { error_response(..) }`): on a failure path (an
// `Err(_)` arm) the helper's `{"error": ..}` text is the failure answered as success, whatever
// literal the message is. An early `return` of such a helper outside any failure path (a
// configuration switch) is the helper's own answer and is not judged at each call.
use rmcp::{handler::server::wrapper::Parameters, schemars, tool, tool_router};

fn error_response(code: &str, message: impl Into<String>) -> String {
    serde_json::json!({ "error": { "code": code, "message": message.into() } }).to_string()
}

fn not_connected() -> String {
    error_response("not_connected", "No application socket found.")
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Snap {
    pub name: String,
}

pub struct Desktop {
    snapshots: std::sync::RwLock<Vec<String>>,
    enabled: bool,
}

#[tool_router]
impl Desktop {
    #[tool(description = "Save a snapshot")]
    async fn save_snapshot(&self, Parameters(s): Parameters<Snap>) -> String {
        if !self.enabled {
            return error_response("disabled", "snapshots are disabled on this server");
        }
        let index = match std::fs::read_to_string("/var/lib/desktop/index") {
            Ok(text) => text,
            Err(_) => return error_response("index_error", "snapshot index unreadable"), //~ failure_as_success
        };
        if let Ok(mut guard) = self.snapshots.write() {
            guard.push(format!("{index}/{}", s.name));
        }
        match std::fs::write(format!("/tmp/{}", s.name), b"") {
            Ok(()) => format!("saved {}", s.name),
            Err(_) => not_connected(), //~ failure_as_success
        }
    }
}
