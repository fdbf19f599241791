//@ dep: pmcp = "2.23"
//@ dep: serde_json = "1"
// pmcp 2.23 `ToolHandler`s whose vague `Error::tool_rejected("failed", None)` text sits in a
// closure of a method chain, in a file rustfmt leaves alone. The fix writes what failed and the
// error in scope, which no longer fits on the closure's line: laid out as rustfmt does (a
// closure body that is a call taking a block, the chain's last call back on its first line when
// the calls before it fit within rustfmt's chain budget, else one call per line).
use pmcp::{async_trait, Error, RequestHandlerExtra, ToolHandler};
use serde_json::Value;

pub struct A;

#[async_trait]
impl ToolHandler for A {
    async fn handle(&self, args: Value, _extra: RequestHandlerExtra) -> pmcp::Result<Value> {
        let path = args.get("path").and_then(Value::as_str).unwrap_or_default();
        std::fs::write(path, "x").map_err(|e| Error::tool_rejected("failed", None))?; //~ vague_error_text

        //~vvv vague_error_text
        let size = std::fs::metadata(path)
            .map(|m| m.len())
            .map_err(|e| Error::tool_rejected("failed", None))?;
        //~vv vague_error_text
        let text = std::fs::read_to_string(path)
            .map_err(|e| Error::tool_rejected("failed", None))?
            .to_lowercase();
        if size == 0 {
            //~vvv vague_error_text
            return std::fs::read_to_string(path)
                .map(Value::from)
                .map_err(|e| Error::tool_rejected("Something went wrong", None));
        }
        match args.get("x") {
            //~vvv vague_error_text
            Some(_) => std::fs::read_to_string(path)
                .map(Value::from)
                .map_err(|e| Error::tool_rejected("failed", None)),
            None => Ok(Value::from(text)),
        }
    }
}

pub struct B;

#[async_trait]
impl ToolHandler for B {
    async fn handle(&self, args: Value, _extra: RequestHandlerExtra) -> pmcp::Result<Value> {
        let path = args.get("path").and_then(Value::as_str).unwrap_or_default();
        //~vvv vague_error_text
        std::fs::read_to_string(path)
            .map(Value::from)
            .map_err(|e| Error::tool_rejected("operation failed", None))
    }
}
