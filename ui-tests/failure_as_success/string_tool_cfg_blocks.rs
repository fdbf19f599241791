//@ rmcp = "1.8"
//@ dep: serde_json = "1"
// A `-> String` tool written for several targets: a `#[cfg(target_os = "linux")] { .. }` block
// statement followed by its `#[cfg(not(..))]` twin as the tail. On Linux the first block's value
// is the fn's: its `Err(e)` arm that answers the failure with the server's `{"error": ..}` text is
// a failure answered as success,
// as it would be in the tail. A `#[cfg]` block that is no value (it ends in a statement) and a
// block without `#[cfg]` before the tail are not answers.
use rmcp::{tool, tool_router};

pub struct Desktop;

/// The server's failure text: `{"error": {"code": .., "message": ..}}`.
fn error_response(code: &str, message: impl Into<String>) -> String {
    serde_json::json!({ "error": { "code": code, "message": message.into() } }).to_string()
}

fn press(id: u64) -> Result<bool, String> {
    std::fs::write(format!("/tmp/press-{id}"), b"1")
        .map(|_| true)
        .map_err(|e| e.to_string())
}

#[tool_router]
impl Desktop {
    #[tool(description = "Click an element")]
    async fn click_element(&self, id: u64) -> String {
        #[cfg(target_os = "linux")]
        {
            eprintln!("clicking {id}");
        }
        {
            let _ = format!("Failed to log {id}");
        }
        #[cfg(target_os = "linux")]
        {
            match press(id) {
                Ok(true) => "clicked".to_string(),
                Ok(false) => "not clickable".to_string(),
                Err(e) => error_response("press_failed", format!("cannot press {id}: {e}")), //~ failure_as_success
            }
        }
        #[cfg(not(target_os = "linux"))]
        {
            let _ = id;
            "click requires Linux".to_string()
        }
    }
}
