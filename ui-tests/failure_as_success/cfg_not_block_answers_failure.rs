//@ rmcp = "1.8"
//@ dep: serde_json = "1"
// A tool that works on one platform only answers the others from a `#[cfg(not(..))]` block:
// where it is compiled, that block's value is the tool's whole answer. When it says the tool
// failed (the server's `{"error": ..}` JSON), a `-> String` tool sends that failure as a success
// result, in the tool or in the helper it hands the call to. A `#[cfg(not(..))]` block that
// answers with the work done another way (a fallback implementation), or with text that says
// nothing failed, is no failure; nor is one whose answer is an isError result.
use rmcp::model::{CallToolResult, Content};
use rmcp::{tool, tool_router, ErrorData};

pub struct Desktop;

/// The server's failure text: `{"error": "<kind>", "message": ..}`.
fn error_response(kind: &str, message: impl Into<String>) -> String {
    serde_json::json!({ "error": kind, "message": message.into() }).to_string()
}

fn press(id: u64) -> Result<bool, String> {
    std::fs::write(format!("/tmp/press-{id}"), b"1")
        .map(|_| true)
        .map_err(|e| e.to_string())
}

fn render_on_cpu(id: u64) -> String {
    format!("rendered {id} on the CPU")
}

mod actions {
    pub async fn focus(id: u64) -> String {
        #[cfg(target_os = "linux")]
        {
            format!("focused {id}")
        }
        #[cfg(not(target_os = "linux"))]
        {
            let _ = id;
            super::error_response("not_available", "focus requires AT-SPI on Linux.") //~ failure_as_success
        }
    }
}

#[tool_router]
impl Desktop {
    #[tool(description = "Click an element")]
    async fn click_element(&self, id: u64) -> String {
        #[cfg(target_os = "linux")]
        {
            match press(id) {
                Ok(true) => "clicked".to_string(),
                Ok(false) => "not clickable".to_string(),
                Err(e) => format!("cannot press {id}: {e}"), //~ failure_as_success
            }
        }
        #[cfg(not(target_os = "linux"))]
        {
            let _ = id;
            error_response("not_available", "click_element requires AT-SPI on Linux.") //~ failure_as_success
        }
    }

    #[tool(description = "Focus an element")]
    async fn focus_element(&self, id: u64) -> String {
        actions::focus(id).await
    }

    #[tool(description = "Render an element")]
    async fn render(&self, id: u64) -> String {
        #[cfg(feature = "gpu")]
        {
            format!("rendered {id} on the GPU")
        }
        #[cfg(not(feature = "gpu"))]
        {
            render_on_cpu(id)
        }
    }

    #[tool(description = "Describe the platform")]
    async fn platform(&self) -> String {
        #[cfg(not(windows))]
        {
            serde_json::json!({ "family": "unix", "separator": "/" }).to_string()
        }
        #[cfg(windows)]
        {
            serde_json::json!({ "family": "windows", "separator": "\\" }).to_string()
        }
    }

    #[tool(description = "Press an element")]
    async fn press_element(&self, id: u64) -> Result<CallToolResult, ErrorData> {
        #[cfg(target_os = "linux")]
        {
            let pressed = press(id).unwrap_or(false);
            Ok(CallToolResult::success(vec![Content::text(format!("pressed: {pressed}"))]))
        }
        #[cfg(not(target_os = "linux"))]
        {
            let _ = id;
            Ok(CallToolResult::error(vec![Content::text(
                "press_element needs Linux's AT-SPI; this server runs elsewhere",
            )]))
        }
    }
}
