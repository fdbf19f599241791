//@ dep: turbomcp = "3.6"
//@ dep: serde_json = "1"
//@ dep: serde = "1"
// turbomcp 3.x `#[tool]` fns whose output is not a `Result`: `-> Json<T>` and `-> Value`
// (turbomcp-core 3.6.0 `response.rs` ~239: `IntoToolResult for Json<T>`; turbomcp-types
// `traits.rs`: for `Value`), sent as a success result. Such a tool has no failure answer: the
// isError one is the `Err(McpError::..)` of a tool declared `-> McpResult<..>` (the generated
// dispatch turns it into `Ok(e.to_tool_result())`, turbomcp-macros 3.6.0 `server.rs`
// ~1389-1396), so the help says to declare it so, and there is no fix (its other answers would
// need their `Ok(..)` too). `Ok(ToolResult::error(..))` would not type-check there.
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
    async fn stat(&self, path: String) -> Json<Stat> {
        match std::fs::metadata(&path) {
            Ok(meta) => Json(Stat { path, bytes: meta.len(), error: None }),
            Err(e) => Json(Stat { path, bytes: 0, error: Some(e.to_string()) }), //~ failure_as_success
        }
    }

    #[tool("First line of a file")]
    async fn head(&self, path: String) -> Value {
        match std::fs::read_to_string(&path) {
            Ok(text) => json!({ "path": path, "line": text.lines().next() }),
            Err(e) => json!({ "path": path, "error": format!("cannot read {path}: {e}") }), //~ failure_as_success
        }
    }

    #[tool("Last line of a file")]
    async fn tail(&self, path: String) -> McpResult<Json<Stat>> {
        match std::fs::metadata(&path) {
            Ok(meta) => Ok(Json(Stat { path, bytes: meta.len(), error: None })),
            Err(e) => Ok(Json(Stat { path, bytes: 0, error: Some(e.to_string()) })), //~ failure_as_success
        }
    }
}
