//@ dep: pmcp = "2.23"
//@ dep: serde = "1"
//@ dep: serde_json = "1"
//@ dep: schemars = "1"
//@ dep: tokio = "1"
// pmcp 2.x `ServerBuilder` registrations that take a description before the handler
// (`tool_typed_with_description`, `tool_typed_sync_with_description`,
// `tool_with_result_and_description`, `tool_typed_with_output_and_description`; read in
// pmcp 2.12.0 and 2.23.0, server/mod.rs): their closures are tools like `tool_typed`'s, so an
// `Err` is sent as -32603 unless it is `Error::tool_rejected(..)`.
use pmcp::{Error, ServerBuilder};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

#[derive(Debug, Deserialize, JsonSchema)]
pub struct ReadArgs {
    /// Path of the file to read.
    pub path: String,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct Lines {
    pub count: usize,
}

pub fn build() -> pmcp::Result<pmcp::Server> {
    ServerBuilder::new()
        .name("files")
        .version("1.0.0")
        .tool_typed_with_description("head", "First line of a file", |args: ReadArgs, _extra| async move {
            let text = tokio::fs::read_to_string(&args.path).await.map_err(|e| Error::internal(format!("cannot read {}: {e}", args.path)))?; //~ tool_failure_as_protocol_error
            Ok(json!({ "first_line": text.lines().next().unwrap_or_default() }))
        })
        .tool_typed_sync_with_description("size", "Size of a file in bytes", |args: ReadArgs, _extra| {
            let meta = std::fs::metadata(&args.path).map_err(|e| Error::tool_rejected(format!("cannot stat {}: {e}", args.path), None))?;
            Ok(json!({ "bytes": meta.len() }))
        })
        .tool_with_result_and_description("tail", "Last line of a file", |args: ReadArgs, _extra| {
            Box::pin(async move {
                let text = std::fs::read_to_string(&args.path).map_err(|e| Error::internal(format!("cannot read {}: {e}", args.path)))?; //~ tool_failure_as_protocol_error
                Ok(json!({ "last_line": text.lines().last().unwrap_or_default() }))
            })
        })
        .tool_typed_with_output_and_description::<ReadArgs, Lines>("lines", "Count the lines of a file", |args, _extra| {
            Box::pin(async move {
                if args.path.is_empty() {
                    return Err(Error::validation("path must not be empty")); //~ tool_failure_as_protocol_error
                }
                let text = std::fs::read_to_string(&args.path).map_err(|e| Error::tool_rejected(format!("cannot read {}: {e}", args.path), None))?;
                Ok(Lines { count: text.lines().count() })
            })
        })
        .build()
}

