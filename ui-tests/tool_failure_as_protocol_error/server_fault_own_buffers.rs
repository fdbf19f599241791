//@ rmcp = "1.8"
//@ dep: tempfile = "3"
//@ dep: oxrdfio = "0.1"
// Where the bytes come from decides, not the message. A value serialised into a buffer the tool
// made empty (`graph.dump(&mut buf)`, also into a `Cursor` read back with `into_inner()`), the
// UTF-8 decoding of that buffer, and a scratch directory from `tempfile` fail only through the
// server: -32603 is right there. Bytes read from the file the model named, and a buffer a fn fills
// from the model's own settings (`render(&mut buf, &args.template)`), fail through the request:
// the tool's own failures.
use std::io::{Cursor, Read};

use oxrdfio::Graph;
use rmcp::{
    handler::server::wrapper::Parameters, model::*, schemars, tool, tool_router,
    ErrorData as McpError,
};
use serde::Deserialize;

#[derive(Deserialize, schemars::JsonSchema)]
pub struct Export {
    pub path: String,
    pub template: String,
}

pub struct Server {
    graph: Graph,
}

fn render(out: &mut Vec<u8>, template: &str) -> Result<(), String> {
    if template.contains("{{") {
        return Err(format!("unclosed placeholder in {template}"));
    }
    out.extend_from_slice(template.as_bytes());
    Ok(())
}

#[tool_router]
impl Server {
    #[tool(description = "Dump the loaded graph")]
    async fn dump(&self, Parameters(_args): Parameters<Export>) -> Result<CallToolResult, McpError> {
        let mut buf = Vec::new();
        self.graph
            .dump(&mut buf)
            .map_err(|e| McpError::internal_error(format!("serialization failed: {e}"), None))?;
        let size = buf.len();
        let text = String::from_utf8(buf)
            .map_err(|e| McpError::internal_error(format!("conversion failed: {e}"), None))?;
        let mut cursor = Cursor::new(Vec::new());
        let writer = self.graph.dump_pretty(&mut cursor);
        writer.finish().map_err(|e| McpError::internal_error(e.to_string(), None))?;
        let pretty = String::from_utf8(cursor.into_inner())
            .map_err(|e| McpError::internal_error(e.to_string(), None))?;
        let scratch = tempfile::tempdir()
            .map_err(|e| McpError::internal_error(format!("no scratch directory: {e}"), None))?;
        Ok(CallToolResult::success(vec![Content::text(format!(
            "{size} {text} {pretty} {}",
            scratch.path().display()
        ))]))
    }

    #[tool(description = "Read a file the model names, and render a template")]
    async fn read(&self, Parameters(args): Parameters<Export>) -> Result<CallToolResult, McpError> {
        let mut file = std::fs::File::open(&args.path)
            .map_err(|e| McpError::internal_error(e.to_string(), None))?; //~ tool_failure_as_protocol_error
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes)
            .map_err(|e| McpError::internal_error(e.to_string(), None))?; //~ tool_failure_as_protocol_error
        let text = String::from_utf8(bytes)
            .map_err(|e| McpError::internal_error(format!("{} is not UTF-8: {e}", args.path), None))?; //~ tool_failure_as_protocol_error
        let mut out = Vec::new();
        render(&mut out, &args.template)
            .map_err(|e| McpError::internal_error(e, None))?; //~ tool_failure_as_protocol_error
        let rendered = String::from_utf8(out)
            .map_err(|e| McpError::internal_error(e.to_string(), None))?;
        Ok(CallToolResult::success(vec![Content::text(format!("{text}{rendered}"))]))
    }
}
