//@ rmcp = "3.1"
//@ dep: serde_json = "1"
// A success result built inside a fn declared to return a number or a flag (serialised to measure
// a response against a size cap) cannot leave that fn: calling it on a failure path answers
// nothing. A helper that returns the success result it builds does answer the failure it is
// called on.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock, ErrorData};
use rmcp::{schemars, tool, tool_router};

const CAP: usize = 1_000_000;

fn response_bytes(items: &[serde_json::Value]) -> usize {
    let Ok(value) = serde_json::to_value(items) else {
        return usize::MAX;
    };
    let result = CallToolResult::structured(value);
    serde_json::to_vec(&result).map_or(usize::MAX, |v| v.len())
}

fn fits(items: &[serde_json::Value]) -> bool {
    response_bytes(items) < CAP
}

fn note(message: String) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(message)])
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Args {
    pub paths: Vec<String>,
}

#[derive(Clone)]
pub struct Batch;

#[tool_router]
impl Batch {
    #[tool(description = "Read files, one item each")]
    async fn read_all(&self, Parameters(args): Parameters<Args>) -> Result<CallToolResult, ErrorData> {
        let mut items = Vec::new();
        for path in &args.paths {
            match std::fs::read_to_string(path) {
                Ok(text) => items.push(serde_json::json!({ "path": path, "text": text })),
                Err(e) => {
                    items.push(serde_json::json!({ "path": path, "error": e.to_string() }));
                    if !fits(&items) {
                        break;
                    }
                }
            }
        }
        Ok(CallToolResult::structured(serde_json::Value::Array(items)))
    }

    #[tool(description = "Read one file")]
    async fn read_one(&self, Parameters(args): Parameters<Args>) -> Result<CallToolResult, ErrorData> {
        let Some(path) = args.paths.first() else {
            return Ok(CallToolResult::error(vec![ContentBlock::text("paths is empty; name one file")]));
        };
        match std::fs::read_to_string(path) {
            Ok(text) => Ok(CallToolResult::success(vec![ContentBlock::text(text)])),
            Err(e) => Ok(note(format!("could not read {path}: {e}"))), //~ failure_as_success
        }
    }
}
