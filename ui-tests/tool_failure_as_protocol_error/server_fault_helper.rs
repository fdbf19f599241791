//@ rmcp = "1.7"
//@ dep: tokio = { version = "1", features = ["rt"] }
//@ dep: serde_json = "1"
// A point-free error helper (`.map_err(internal)?`) is judged by what its callers hand it. One
// that tools call only on server faults (a `spawn_blocking` `JoinError`, serializing the
// server's own value) builds -32603 rightly, as the same error built inline would: not
// reported. One that a tool also calls on its own failure (reading the file the model named) is
// reported at the helper, with that call attached.
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, Content};
use rmcp::{schemars, tool, tool_handler, tool_router, ErrorData, ServerHandler};
use serde::{Deserialize, Serialize};

#[derive(Deserialize, schemars::JsonSchema)]
pub struct Args {
    path: String,
}

#[derive(Serialize)]
struct Summary {
    path: String,
    bytes: usize,
}

fn internal<E: std::fmt::Display>(e: E) -> ErrorData {
    ErrorData::internal_error(e.to_string(), None)
}

fn failed<E: std::fmt::Display>(e: E) -> ErrorData {
    ErrorData::internal_error(e.to_string(), None) //~ tool_failure_as_protocol_error
}

#[derive(Clone)]
pub struct Files {
    tool_router: ToolRouter<Files>,
}

#[tool_handler]
impl ServerHandler for Files {}

#[tool_router]
impl Files {
    #[tool(description = "Size of a file")]
    async fn size(&self, Parameters(args): Parameters<Args>) -> Result<CallToolResult, ErrorData> {
        let path = args.path.clone();
        let read = tokio::task::spawn_blocking(move || std::fs::read(&path))
            .await
            .map_err(internal)?;
        match read {
            Ok(bytes) => {
                let summary = Summary { path: args.path, bytes: bytes.len() };
                let json = serde_json::to_string(&summary).map_err(internal)?;
                Ok(CallToolResult::success(vec![Content::text(json)]))
            }
            Err(e) => Ok(CallToolResult::error(vec![Content::text(format!(
                "cannot read {}: {e}",
                args.path
            ))])),
        }
    }

    #[tool(description = "Text of a file")]
    async fn read(&self, Parameters(args): Parameters<Args>) -> Result<CallToolResult, ErrorData> {
        let path = args.path.clone();
        let text = tokio::task::spawn_blocking(move || std::fs::read_to_string(&path))
            .await
            .map_err(failed)?
            .map_err(failed)?;
        Ok(CallToolResult::success(vec![Content::text(text)]))
    }
}
