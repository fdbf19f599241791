//@ dep: pmcp = "2.23"
//@ dep: async-trait = "0.1"
//@ dep: serde_json = "1"
// pmcp 2.x isError results with nothing to read. `Error::tool_rejected(message, ..)` becomes
// `CallToolResult::rejected(..)`, whose only text block is the message, so an empty message is an
// empty error; `CallToolResult::error(vec![])` from `handle_output` or a `tool_with_result`
// closure is one too. pmcp's `CallToolResult` is `#[non_exhaustive]` in 2.x and `is_error` is a
// plain `bool`, so the flag is set by assignment, `result.is_error = true` (the span), after
// `CallToolResult::new(..)`. A rejection with details but a message, and a success with no
// content, are not this lint.
use async_trait::async_trait;
use pmcp::types::{CallToolResult, Content};
use pmcp::{Error, RequestHandlerExtra, Server, ToolHandler, ToolOutput};
use serde_json::{json, Value};

pub struct RenameFile;

#[async_trait]
impl ToolHandler for RenameFile {
    async fn handle(&self, args: Value, _extra: RequestHandlerExtra) -> pmcp::Result<Value> {
        let from = args.get("from").and_then(Value::as_str).unwrap_or_default();
        let to = args.get("to").and_then(Value::as_str).unwrap_or_default();
        if from.is_empty() || to.is_empty() {
            return Err(Error::tool_rejected("", None)); //~ empty_error_content
        }
        if from == to {
            return Err(Error::tool_rejected(String::new(), Some(json!({ "from": from, "to": to })))); //~ empty_error_content
        }
        if to.contains('/') {
            return Err(Error::tool_rejected(format!("{to} contains '/'; give a file name, not a path"), Some(json!({ "to": to }))));
        }
        std::fs::rename(from, to).map_err(|e| Error::tool_rejected(format!("cannot rename {from} to {to}: {e}"), None))?;
        Ok(json!({ "renamed": to }))
    }
}

pub struct DiskUsage;

#[async_trait]
impl ToolHandler for DiskUsage {
    async fn handle(&self, args: Value, extra: RequestHandlerExtra) -> pmcp::Result<Value> {
        match self.handle_output(args, extra).await? {
            ToolOutput::Result(result) => Ok(serde_json::to_value(result)?),
            other => Ok(if let ToolOutput::Payload(value) = other { value } else { Value::Null }),
        }
    }

    async fn handle_output(&self, args: Value, _extra: RequestHandlerExtra) -> pmcp::Result<ToolOutput> {
        let path = args.get("path").and_then(Value::as_str).unwrap_or(".");
        let Ok(meta) = std::fs::metadata(path) else {
            return Ok(ToolOutput::Result(CallToolResult::error(vec![]))); //~ empty_error_content
        };
        if !meta.is_dir() {
            let mut result = CallToolResult::new(vec![Content::text("")]);
            result.is_error = true; //~ empty_error_content
            return Ok(ToolOutput::Result(result));
        }
        let entries = std::fs::read_dir(path).map(|d| d.count()).unwrap_or(0);
        if entries == 0 {
            // An empty directory is an answer, not an error.
            return Ok(ToolOutput::Result(CallToolResult::new(vec![])));
        }
        Ok(ToolOutput::Result(CallToolResult::new(vec![Content::text(format!("{entries} entries in {path}"))])))
    }
}

pub fn build() -> pmcp::Result<Server> {
    Server::builder()
        .name("files")
        .version("1.0.0")
        .tool("rename_file", RenameFile)
        .tool("disk_usage", DiskUsage)
        .tool_with_result("checksum", |args: Value, _extra| {
            Box::pin(async move {
                let path = args.get("path").and_then(Value::as_str).unwrap_or_default().to_string();
                match std::fs::read(&path) {
                    Ok(bytes) => Ok(CallToolResult::new(vec![Content::text(format!("{:08x}", crc32(&bytes)))])),
                    Err(_) => Ok(CallToolResult::error(vec![Content::text("   ")])), //~ empty_error_content
                }
            })
        })
        .build()
}

fn crc32(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0xffff_ffffu32, |crc, b| {
        (0..8).fold(crc ^ u32::from(*b), |c, _| if c & 1 == 1 { (c >> 1) ^ 0xedb8_8320 } else { c >> 1 })
    }) ^ 0xffff_ffff
}
