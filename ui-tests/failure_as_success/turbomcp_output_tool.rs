//@ dep: turbomcp = "3.6"
//@ dep: serde_json = "1"
//@ dep: serde = "1"
//@ dep: tokio = "1"
// turbomcp 3.x `#[tool]` fns with a typed output: `McpResult<Json<T>>` (turbomcp 3.6.0 README,
// "Custom Types and Schema Generation": sent as `structuredContent`, `T`'s schema advertised as
// the tool's `outputSchema`) and `McpResult<Value>`. Their `Ok` is the tool's output, a success
// result, so a failure answered with `Ok(..)` hides it. `Ok(ToolResult::error(..))` does not
// type-check there: the isError answer is an `Err(McpError::..)`, which the generated dispatch
// turns into `Ok(e.to_tool_result())`. The `json!` answer gets that fix (MaybeIncorrect: its other
// members go); the struct gets the help only.
use serde::Serialize;
use serde_json::{json, Value};
use turbomcp::prelude::*;

#[derive(Serialize)]
struct Stat {
    path: String,
    bytes: u64,
    error: Option<String>,
}

#[derive(Clone, Default)]
struct Files;

#[server]
impl Files {
    #[tool("Size of a file")]
    async fn stat(&self, path: String) -> McpResult<Json<Stat>> {
        match tokio::fs::metadata(&path).await {
            Ok(meta) => Ok(Json(Stat { path, bytes: meta.len(), error: None })),
            Err(e) => Ok(Json(Stat { path, bytes: 0, error: Some(e.to_string()) })), //~ failure_as_success
        }
    }

    #[tool("First line of a file")]
    async fn head(&self, path: String) -> McpResult<Value> {
        match tokio::fs::read_to_string(&path).await {
            Ok(text) => Ok(json!({ "path": path, "line": text.lines().next() })),
            Err(e) => Ok(json!({ "path": path, "error": format!("cannot read {path}: {e}") })), //~ failure_as_success
        }
    }
}
