//@ rmcp = "1.8"
// A tool that returns `String` answers with JSON it serialises itself:
// `serde_json::to_string_pretty(&json!({"success": false, "error": ..}))` (and its
// `.unwrap_or_else(|_| ..)` fallback) in an `Err(e)` arm is the failure sent as the text of a
// success result, as `json!({..}).to_string()` is. Reported at the serialisation; the fallback's
// own `{"error": "serialization failed"}` text is a second answer, reported at its own place. A
// serialised report that does not say it failed, on the success path, is not reported.
use rmcp::{handler::server::wrapper::Parameters, schemars, tool, tool_router};
use serde::Deserialize;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct ReloadArgs {
    pub config_path: String,
}

pub struct Server;

#[tool_router]
impl Server {
    #[tool(description = "Reload the configuration file")]
    async fn reload_config(&self, Parameters(args): Parameters<ReloadArgs>) -> String {
        let path = args.config_path;
        let content = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) => {
                return serde_json::to_string_pretty(&serde_json::json!({ //~ failure_as_success
                    "success": false,
                    "error": format!("failed to read {path}: {e}"),
                }))
                .unwrap_or_else(|_| r#"{"error": "serialization failed"}"#.to_string()); //~ failure_as_success
            }
        };
        let lines = match content.lines().count() {
            0 => return serde_json::to_string(&serde_json::json!({ "success": false, "error": format!("{path} is empty") })).unwrap_or_default(), //~ failure_as_success
            n => n,
        };
        serde_json::to_string(&serde_json::json!({ "success": true, "lines": lines })).unwrap_or_default()
    }
}
