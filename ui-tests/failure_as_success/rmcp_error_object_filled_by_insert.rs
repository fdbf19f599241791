//@ rmcp = "1.8"
// rmcp, `-> String` tools and a helper that answers a failure with a JSON object it fills from
// the error (`obj.insert("error".into(), json!(e.to_string()))`) as the tool's success text:
// reported at the helper's answer, once: not again at the tools' calls that hand it an `Err`
// made of their own error (`return json_result(Err(AppleError::Transport(format!(.. {e}))))`).
use rmcp::{handler::server::{router::tool::ToolRouter, wrapper::Parameters}, schemars, tool, tool_router};
use serde::Deserialize;

#[derive(Debug)]
pub enum AppleError {
    Transport(String),
}

impl std::fmt::Display for AppleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{self:?}")
    }
}

fn json_result(r: Result<String, AppleError>) -> String {
    match r {
        Ok(s) => s,
        Err(e) => {
            let mut obj = serde_json::Map::new();
            obj.insert("error".into(), serde_json::json!(e.to_string()));
            serde_json::Value::Object(obj).to_string() //~ failure_as_success
        }
    }
}

fn list_notes(folder: &str) -> Result<String, AppleError> {
    Err(AppleError::Transport(format!("osascript failed listing {folder}")))
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct NotesArgs {
    pub folder: String,
}

#[derive(Clone)]
pub struct Notes {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Notes {
    #[tool(description = "List notes")]
    async fn list(&self, Parameters(args): Parameters<NotesArgs>) -> String {
        json_result(list_notes(&args.folder))
    }

    #[tool(description = "Count notes")]
    async fn count(&self, Parameters(args): Parameters<NotesArgs>) -> String {
        let raw = match list_notes(&args.folder) {
            Ok(raw) => raw,
            Err(e) => return json_result(Err(e)),
        };
        let parsed: serde_json::Value = match serde_json::from_str(&raw) {
            Ok(v) => v,
            Err(e) => {
                return json_result(Err(AppleError::Transport(format!("unreadable listing: {e}"))));
            }
        };
        parsed.as_array().map_or(0, Vec::len).to_string()
    }
}
