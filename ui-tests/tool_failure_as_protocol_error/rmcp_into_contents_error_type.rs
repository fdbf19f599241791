//@ rmcp = "3.1"
//@ dep: serde_json = "1"
// A crate error type that holds rmcp's `ErrorData` and implements rmcp's `IntoContents`
// (`struct ToolError(ErrorData)`): rmcp makes a `#[tool]`'s `Err(ToolError)` an isError result
// whose content `into_contents` builds (sdk-error-apis.md §1.3), so an `ErrorData` converted into
// it (`.into()` in a fn declared to return it, in a `map_err` / `ok_or_else` closure, after a
// `match`) never reaches the wire as a protocol error. A type that implements a crate trait of the
// same name is no such type: its `ErrorData` is the JSON-RPC error the tool returns.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{ContentBlock, ErrorData, IntoContents};
use rmcp::{schemars, tool, tool_router};
use std::path::PathBuf;

/// A tool failure: an isError result carrying the message and the data.
#[derive(Debug)]
pub struct ToolError(ErrorData);

impl From<ErrorData> for ToolError {
    fn from(value: ErrorData) -> Self {
        Self(value)
    }
}

impl IntoContents for ToolError {
    fn into_contents(self) -> Vec<ContentBlock> {
        let body = serde_json::json!({ "message": self.0.message, "data": self.0.data });
        vec![ContentBlock::text(body.to_string())]
    }
}

fn bad_input(message: impl Into<String>) -> ToolError {
    ErrorData::invalid_params(message.into(), None).into()
}

fn io_failure(error: &std::io::Error) -> ToolError {
    match error.kind() {
        std::io::ErrorKind::NotFound => ErrorData::invalid_params(error.to_string(), None),
        _ => ErrorData::internal_error(error.to_string(), None),
    }
    .into()
}

fn home() -> Result<PathBuf, ToolError> {
    std::env::var_os("HOME")
        .map(PathBuf::from)
        .ok_or_else(|| ErrorData::internal_error("HOME is not set".to_owned(), None).into())
}

mod own {
    /// The crate's own trait, not rmcp's.
    pub trait IntoContents {
        fn describe(&self) -> String;
    }
}

/// Converted back into `ErrorData` by the tools that return it.
#[derive(Debug)]
pub struct Wrapped(ErrorData);

impl own::IntoContents for Wrapped {
    fn describe(&self) -> String {
        self.0.message.to_string()
    }
}

impl From<Wrapped> for ErrorData {
    fn from(value: Wrapped) -> Self {
        value.0
    }
}

fn wrapped(message: String) -> Wrapped {
    Wrapped(ErrorData::internal_error(message, None)) //~ tool_failure_as_protocol_error
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Args {
    pub path: String,
}

#[derive(Clone)]
pub struct Files;

#[tool_router]
impl Files {
    #[tool(description = "Read a file")]
    async fn read(&self, Parameters(args): Parameters<Args>) -> Result<String, ToolError> {
        if args.path.is_empty() {
            return Err(bad_input(format!("path {:?} is empty", args.path)));
        }
        let path = home()?.join(&args.path);
        std::fs::read_to_string(&path).map_err(|e| {
            ErrorData::internal_error(format!("cannot read {}: {e}", path.display()), None).into()
        })
    }

    #[tool(description = "Size of a file")]
    async fn size(&self, Parameters(args): Parameters<Args>) -> Result<String, ToolError> {
        let meta = std::fs::metadata(&args.path).map_err(|e| io_failure(&e))?;
        Ok(meta.len().to_string())
    }

    #[tool(description = "Remove a file")]
    async fn remove(&self, Parameters(args): Parameters<Args>) -> Result<String, ErrorData> {
        std::fs::remove_file(&args.path)
            .map_err(|e| wrapped(format!("cannot remove {}: {e}", args.path)))?;
        Ok(format!("removed {}", args.path))
    }
}
