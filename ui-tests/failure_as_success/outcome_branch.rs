//@ rmcp = "1.8"
// The branch an `if` takes when an operation's outcome says it failed is that failure's path:
// the `else` of `if output.status.success()`, the `then` of `if !resp.status().is_success()`
// or `if r.is_err()`. An answer there that says it failed (`{"success": false, ..}`,
// `{"error": ..}`) is the failure answered as success, also as the tool's final value. The
// branch of the success itself is not, even when its data says "success": false (the linter
// itself reports a checked file's errors that way).
use std::process::Command;

use rmcp::{
    handler::server::wrapper::{Json, Parameters},
    schemars, tool, tool_router, ErrorData as McpError,
};
use serde_json::{json, Value};

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Code {
    pub path: String,
}

pub struct Tools;

#[tool_router]
impl Tools {
    #[tool(description = "Check a file with the compiler")]
    async fn check(&self, Parameters(c): Parameters<Code>) -> Result<Json<Value>, McpError> {
        let output = Command::new("rustc")
            .arg(&c.path)
            .output()
            .map_err(|e| McpError::internal_error(format!("could not run rustc: {e}"), None))?; //~ tool_failure_as_protocol_error
        if output.status.success() {
            Ok(Json(json!({ "success": true, "path": c.path })))
        } else {
            let stderr = String::from_utf8_lossy(&output.stderr);
            Ok(Json(json!({ "success": false, "error": stderr.trim() }))) //~ failure_as_success
        }
    }

    #[tool(description = "Format a file")]
    async fn format(&self, Parameters(c): Parameters<Code>) -> String {
        let Ok(output) = Command::new("rustfmt").arg(&c.path).output() else {
            return json!({ "error": "rustfmt is not installed" }).to_string(); //~ failure_as_success
        };
        if !output.status.success() {
            json!({ "error": String::from_utf8_lossy(&output.stderr) }).to_string() //~ failure_as_success
        } else {
            json!({ "formatted": c.path }).to_string()
        }
    }

    #[tool(description = "Lint a file")]
    async fn lint(&self, Parameters(c): Parameters<Code>) -> Json<Value> {
        let output = Command::new("mcp-lint").arg(&c.path).output();
        if output.is_ok() {
            // The linter ran: the file's findings are the answer, whatever they say.
            Json(json!({ "success": false, "findings": c.path }))
        } else {
            Json(json!({ "success": true, "skipped": c.path }))
        }
    }
}
