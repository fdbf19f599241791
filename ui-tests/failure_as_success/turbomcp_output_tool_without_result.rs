//@ dep: turbomcp = "3.6"
//@ dep: serde_json = "1"
//@ dep: serde = "1"
// turbomcp 3.x `#[tool]` fns whose output is not a `Result`: `-> Json<T>` and `-> Value`
// (turbomcp-core 3.6.0 `response.rs` ~239: `IntoToolResult for Json<T>`; turbomcp-types
// `traits.rs`: for `Value`), sent as a success result. Such a tool has no failure answer: the
// isError one is the `Err(McpError::..)` of a tool declared `-> McpResult<..>` or `-> Result<..,
// McpError>` (the generated dispatch turns it into `Ok(e.to_tool_result())`, turbomcp-macros
// 3.6.0 `server.rs` ~1389-1396). So the help says to declare it so, and the fix does: the output
// declared `Result<T, McpError>`, every other returned value in `Ok(..)`, the failure
// `Err(McpError::internal(..))` (MaybeIncorrect: its other data goes). `Ok(ToolResult::error(..))`
// would not type-check there. A tool with a `?` in it gets the help only.
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
            Ok(meta) => Json(Stat {
                path,
                bytes: meta.len(),
                error: None,
            }),
            //~v failure_as_success
            Err(e) => Json(Stat {
                path,
                bytes: 0,
                error: Some(e.to_string()),
            }),
        }
    }

    #[tool("First line of a file")]
    async fn head(&self, path: String) -> Value {
        if path.is_empty() {
            return json!({ "line": null });
        }
        match std::fs::read_to_string(&path) {
            Ok(text) => json!({ "path": path, "line": text.lines().next() }),
            //~v failure_as_success
            Err(e) => json!({ "path": path, "error": format!("cannot read {path}: {e}") }),
        }
    }

    #[tool("Size of a file with a name")]
    async fn size(&self, path: String) -> Option<Value> {
        let first = path.chars().next()?;
        match std::fs::metadata(&path) {
            Ok(meta) => Some(json!({ "first": first, "bytes": meta.len() })),
            //~v failure_as_success
            Err(e) => Some(json!({ "error": format!("cannot stat {path}: {e}") })),
        }
    }

    #[tool("Last line of a file")]
    async fn tail(&self, path: String) -> McpResult<Json<Stat>> {
        match std::fs::metadata(&path) {
            Ok(meta) => Ok(Json(Stat {
                path,
                bytes: meta.len(),
                error: None,
            })),
            //~v failure_as_success
            Err(e) => Ok(Json(Stat {
                path,
                bytes: 0,
                error: Some(e.to_string()),
            })),
        }
    }
}
