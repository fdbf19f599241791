//@ rmcp = "1.8"
// A `-> String` tool whose answer is its own value serialised: when serialising fails (a server
// fault), a fallback that says nothing of a failure (`"{}"`, "Spawned successfully.") is a
// placeholder, not a failure told as success, and is not reported. A fallback that says it
// failed (`{"error": "serialization failed"}`) or carries the error is reported, and so is a
// placeholder put in place of a failure that is the tool's own (reading the file the model named).
use rmcp::{handler::server::wrapper::Parameters, schemars, tool, tool_router};
use serde::{Deserialize, Serialize};

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct PathArgs {
    pub path: String,
}

#[derive(Serialize)]
pub struct Report {
    pub lines: usize,
}

pub struct Server;

#[tool_router]
impl Server {
    #[tool(description = "Count the lines of a file")]
    async fn count(&self, Parameters(args): Parameters<PathArgs>) -> String {
        let text = std::fs::read_to_string(&args.path).unwrap_or_else(|_| "{}".into()); //~ failure_as_success
        let report = Report { lines: text.lines().count() };
        serde_json::to_string_pretty(&report).unwrap_or_else(|_| "{}".into())
    }

    #[tool(description = "Spawn a terminal")]
    async fn spawn(&self) -> String {
        let report = Report { lines: 0 };
        serde_json::to_string(&report).unwrap_or_else(|_| "Spawned successfully.".into())
    }

    #[tool(description = "Report the pipeline's state")]
    async fn status(&self) -> String {
        let report = Report { lines: 1 };
        serde_json::to_string(&report)
            .unwrap_or_else(|_| r#"{"error": "serialization failed"}"#.to_string()) //~ failure_as_success
    }

    #[tool(description = "Report the pipeline's state, with the cause")]
    async fn status_verbose(&self) -> String {
        let report = Report { lines: 2 };
        serde_json::to_string(&report).unwrap_or_else(|e| format!("cannot encode the report: {e}")) //~ failure_as_success
    }
}
