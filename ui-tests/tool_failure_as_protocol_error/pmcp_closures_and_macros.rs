//@ dep: pmcp = "2.23"
//@ dep: serde = "1"
//@ dep: serde_json = "1"
//@ dep: schemars = "1"
//@ dep: tokio = "1"
// pmcp 2.x tools without a hand-written `ToolHandler`: `#[mcp_tool]` free fns and methods of a
// `#[mcp_server]` impl, and the closures given to `SimpleTool::new`, `TypedTool::new` and
// `ServerBuilder::tool_typed`, also boxed (`Box::new(|args, extra| ..)`) or with the schema given by
// hand (`TypedTool::new_with_schema`). Their `Err` has the
// same meaning as in `ToolHandler::handle`: -32603 unless it is `Error::tool_rejected(..)`.
// `#[mcp_prompt]` fns are not tools.
use std::path::PathBuf;
use std::sync::Arc;

use pmcp::{mcp_prompt, mcp_server, mcp_tool, Error, ServerBuilder, SimpleTool, State, TypedTool};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

#[derive(Debug, Deserialize, JsonSchema)]
pub struct DivideArgs {
    /// Dividend.
    pub a: f64,
    /// Divisor, not zero.
    pub b: f64,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct DivideResult {
    pub quotient: f64,
}

#[mcp_tool(description = "Divide a by b")]
async fn divide(args: DivideArgs) -> pmcp::Result<DivideResult> {
    if args.b == 0.0 {
        return Err(Error::validation("b must not be zero")); //~ tool_failure_as_protocol_error
    }
    Ok(DivideResult { quotient: args.a / args.b })
}

#[mcp_tool(description = "Integer division of a by b")]
async fn div_floor(args: DivideArgs) -> pmcp::Result<DivideResult> {
    if args.b == 0.0 {
        return Err(Error::tool_rejected("b must not be zero; pass a non-zero divisor", None));
    }
    Ok(DivideResult { quotient: (args.a / args.b).floor() })
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct ReadArgs {
    /// Path under the notes directory.
    pub path: String,
}

pub struct NotesConfig {
    pub dir: PathBuf,
}

#[mcp_tool(description = "Read a note")]
async fn read_note(args: ReadArgs, config: State<NotesConfig>) -> pmcp::Result<Value> {
    let text = tokio::fs::read_to_string(config.dir.join(&args.path)).await?; //~ tool_failure_as_protocol_error
    Ok(json!({ "text": text }))
}

#[mcp_prompt(description = "Review a note")]
async fn review_note(args: ReadArgs, config: State<NotesConfig>) -> pmcp::Result<pmcp::types::GetPromptResult> {
    let text = tokio::fs::read_to_string(config.dir.join(&args.path)).await.map_err(|e| Error::internal(format!("cannot read {}: {e}", args.path)))?;
    Ok(pmcp::types::GetPromptResult::new(
        vec![pmcp::types::PromptMessage::user(pmcp::types::Content::text(format!("Review this note:\n{text}")))],
        None,
    ))
}

pub struct Archive {
    dir: PathBuf,
}

#[mcp_server]
impl Archive {
    #[mcp_tool(description = "Move a note into the archive")]
    async fn archive(&self, args: ReadArgs) -> pmcp::Result<Value> {
        let from = self.dir.join(&args.path);
        if !from.exists() {
            return Err(Error::not_found(format!("no note at {}", args.path))); //~ tool_failure_as_protocol_error
        }
        tokio::fs::rename(&from, self.dir.join("archive").join(&args.path))
            .await
            .map_err(|e| Error::tool_rejected(format!("cannot archive {}: {e}", args.path), None))?;
        Ok(json!({ "archived": args.path }))
    }
}

pub fn build(config: Arc<NotesConfig>) -> pmcp::Result<pmcp::Server> {
    ServerBuilder::new()
        .name("notes")
        .version("1.0.0")
        .tool("divide", divide())
        .tool("div_floor", div_floor())
        .tool("read_note", read_note().with_state(config.clone()))
        .mcp_server(Archive { dir: config.dir.clone() })
        .tool(
            "word_count",
            SimpleTool::new("word_count", |args: Value, _extra| {
                Box::pin(async move {
                    let text = args.get("text").and_then(Value::as_str).ok_or_else(|| Error::internal("text is missing"))?; //~ tool_failure_as_protocol_error
                    Ok(json!({ "words": text.split_whitespace().count() }))
                })
            })
            .with_description("Count the words of a text"),
        )
        .tool(
            "char_count",
            SimpleTool::new("char_count", Box::new(|args: Value, _extra| {
                Box::pin(async move {
                    let text = args.get("text").and_then(Value::as_str).ok_or_else(|| Error::internal("text is missing"))?; //~ tool_failure_as_protocol_error
                    Ok(json!({ "chars": text.chars().count() }))
                })
            })),
        )
        .tool(
            "safe_divide",
            TypedTool::new("safe_divide", |args: DivideArgs, _extra| {
                Box::pin(async move {
                    if args.b == 0.0 {
                        return Err(Error::Validation("Division by zero".to_string())); //~ tool_failure_as_protocol_error
                    }
                    if !args.a.is_finite() {
                        return Err(Error::tool_rejected(format!("a must be a finite number, got {}", args.a), None));
                    }
                    Ok(json!({ "quotient": args.a / args.b }))
                })
            })
            .with_description("Divide a by b"),
        )
        .tool(
            "scaled_divide",
            TypedTool::new_with_schema("scaled_divide", json!({"type": "object"}), |args: DivideArgs, _extra| {
                Box::pin(async move {
                    if args.b == 0.0 {
                        return Err(Error::validation("b must not be zero")); //~ tool_failure_as_protocol_error
                    }
                    Ok(json!({ "quotient": args.a / args.b }))
                })
            }),
        )
        .tool_typed("head", |args: ReadArgs, _extra| async move {
            let text = std::fs::read_to_string(&args.path).map_err(|e| Error::internal(format!("cannot read {}: {e}", args.path)))?; //~ tool_failure_as_protocol_error
            Ok(json!({ "first_line": text.lines().next().unwrap_or_default() }))
        })
        .build()
}
