//@ rmcp = "1.8"
// The branch an `if` takes when an operation's outcome says it failed is that failure's path:
// the `else` of `if output.status.success()`, the `then` of `if !resp.status().is_success()`
// or `if r.is_err()`, and of a reply's own flag (`if reply.success`, `if reply["success"].as_bool()
// == Some(true)`, a helper reading the member as a bool). An answer there that says it failed (`{"success": false, ..}`,
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

    #[tool(description = "Download an asset through the add-on")]
    async fn download(&self, Parameters(c): Parameters<Code>) -> String {
        let reply = addon_call("download", &c.path);
        if get_bool(&reply, "success", false) {
            format!("Downloaded {}", c.path)
        } else {
            let message = reply.get("message").and_then(|m| m.as_str()).unwrap_or("no reason given");
            format!("Failed to download asset: {message}") //~ failure_as_success
        }
    }

    #[tool(description = "Apply a texture through the add-on")]
    async fn texture(&self, Parameters(c): Parameters<Code>) -> String {
        let reply = addon_call("texture", &c.path);
        if reply["success"].as_bool() != Some(true) {
            return "Could not apply the texture".to_string(); //~ failure_as_success
        }
        format!("Applied {}", c.path)
    }

    #[tool(description = "Render through the add-on")]
    async fn render(&self, Parameters(c): Parameters<Code>) -> String {
        let reply: Reply = serde_json::from_value(addon_call("render", &c.path)).unwrap_or_default();
        if !reply.success {
            return format!("Failed to render {}", c.path); //~ failure_as_success
        }
        // The success branch's data may say what the add-on could not do.
        if reply.success {
            format!("Rendered {}. Failed to render: none", c.path)
        } else {
            format!("Rendered {}", c.path)
        }
    }
}

#[derive(Default, serde::Deserialize)]
pub struct Reply {
    pub success: bool,
}

impl std::ops::Index<&str> for Reply {
    type Output = Value;
    fn index(&self, _: &str) -> &Value {
        &Value::Null
    }
}

fn addon_call(command: &str, arg: &str) -> Value {
    json!({ "command": command, "arg": arg })
}

fn get_bool(v: &Value, key: &str, default: bool) -> bool {
    v.get(key).and_then(|x| x.as_bool()).unwrap_or(default)
}
