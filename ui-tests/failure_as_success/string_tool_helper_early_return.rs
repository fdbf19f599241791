//@ rmcp = "0.13"
//@ dep: serde_json = "1"
// A `-> String` tool that leaves early through a crate helper whose value is a `json!` that says
// it failed (`{"error": ..}`), in a branch taken on something the tool tested (a probe of the
// client it was handed, an argument's value): the failure is told as success. The same early
// return on the server's own setting (`if !self.enabled.mail`, a configuration switch) is that
// helper's answer and not judged at each call, and a helper whose JSON is data says nothing
// failed.
use rmcp::{handler::server::wrapper::Parameters, schemars, tool, tool_router};
use serde_json::json;

fn error_response(kind: &str, message: impl Into<String>) -> String {
    json!({ "error": kind, "message": message.into() }).to_string()
}

fn not_connected() -> String {
    error_response("not_connected", "No application socket found; start the app with the client")
}

fn disabled(group: &str) -> String {
    json!({ "error": format!("tool group '{group}' is disabled; reconfigure with --tools") }).to_string()
}

fn idle() -> String {
    json!({ "state": "idle", "recording": false }).to_string()
}

pub struct Socket;

impl Socket {
    pub fn is_available(&self) -> bool {
        true
    }
    pub async fn click(&self, x: f32, y: f32) -> Result<(), std::io::Error> {
        let _ = (x, y);
        Ok(())
    }
}

pub struct Enabled {
    pub input: bool,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Point {
    pub x: f32,
    pub y: f32,
}

async fn click_at(socket: &Socket, x: f32, y: f32) -> String {
    if !socket.is_available() {
        return not_connected(); //~ failure_as_success
    }
    if x < 0.0 || y < 0.0 {
        return error_response("invalid_point", format!("({x}, {y}) is off screen; use coordinates >= 0")); //~ failure_as_success
    }
    match socket.click(x, y).await {
        Ok(()) => json!({ "clicked": [x, y] }).to_string(),
        Err(e) => error_response("click_error", format!("Failed to click: {e}")), //~ failure_as_success
    }
}

async fn recording_state(socket: &Socket) -> String {
    if !socket.is_available() {
        return idle();
    }
    json!({ "state": "recording", "recording": true }).to_string()
}

pub struct Desktop {
    socket: Socket,
    enabled: Enabled,
}

#[tool_router]
impl Desktop {
    #[tool(description = "Click at a point")]
    async fn click(&self, Parameters(p): Parameters<Point>) -> String {
        if !self.enabled.input {
            return disabled("input");
        }
        click_at(&self.socket, p.x, p.y).await
    }

    #[tool(description = "Whether a recording is running")]
    async fn recording(&self) -> String {
        recording_state(&self.socket).await
    }
}
