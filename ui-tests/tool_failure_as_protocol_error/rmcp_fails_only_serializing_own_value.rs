//@ rmcp = "3.11"
//@ dep: serde = { version = "1", features = ["derive"] }
//@ dep: serde_json = "1"
//@ dep: schemars = "1"
// A crate fn whose only failure is serialising the server's own value, as its tail
// (`serde_json::to_string_pretty(doc)`) or through another such fn's `?`: a tool that maps that
// failure to -32603 reports a server fault, rightly. A fn that also reads a file the model named
// fails on a tool's own failure there.
use rmcp::{
    handler::server::wrapper::Parameters,
    model::{CallToolResult, ContentBlock},
    tool, tool_router, ErrorData as McpError,
};

#[derive(serde::Serialize)]
pub struct Document {
    pub id: String,
    pub body: String,
}

pub enum ExportFormat {
    Json,
    Plain,
}

pub fn to_json(doc: &Document) -> Result<String, serde_json::Error> {
    serde_json::to_string_pretty(doc)
}

fn render(doc: &Document, format: ExportFormat) -> Result<String, serde_json::Error> {
    Ok(match format {
        ExportFormat::Json => to_json(doc)?,
        ExportFormat::Plain => doc.body.clone(),
    })
}

fn render_file(path: &str) -> Result<String, std::io::Error> {
    let body = std::fs::read_to_string(path)?;
    let doc = Document { id: path.to_string(), body };
    Ok(to_json(&doc)?)
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct P {
    pub id: String,
}

pub struct Server;

#[tool_router]
impl Server {
    #[tool(description = "Export a document as JSON")]
    async fn export(&self, Parameters(p): Parameters<P>) -> Result<CallToolResult, McpError> {
        let doc = Document { id: p.id.clone(), body: String::new() };
        let text = to_json(&doc)
            .map_err(|e| McpError::internal_error(format!("could not encode {}: {e}", p.id), None))?;
        let rendered = render(&doc, ExportFormat::Json)
            .map_err(|e| McpError::internal_error(format!("could not render {}: {e}", doc.id), None))?;
        Ok(CallToolResult::success(vec![ContentBlock::text(text + &rendered)]))
    }

    #[tool(description = "Export a document file as JSON")]
    async fn export_file(&self, Parameters(p): Parameters<P>) -> Result<CallToolResult, McpError> {
        let text = render_file(&p.id)
            .map_err(|e| McpError::internal_error(format!("could not export {}: {e}", p.id), None))?; //~ tool_failure_as_protocol_error
        Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
    }
}
