//@ rmcp = "0.8"
// A hand-written rmcp 0.8 dispatcher. Schema-level failures are still -32602 in the 2026-07-28
// schema and are not reported: `arguments` missing, a failed `serde_json::from_value`, a required
// field absent or of the wrong JSON type; nor is the unknown-tool arm. A check of the *value*
// inside a tool arm is reported.
use rmcp::{
    model::{CallToolRequestParam, CallToolResult, Content},
    service::RequestContext,
    ErrorData as McpError, RoleServer, ServerHandler,
};
use serde::Deserialize;
use serde_json::Value;

#[derive(Debug, Deserialize)]
struct ResizeArgs {
    width: u32,
    height: u32,
}

#[derive(Clone)]
pub struct Canvas;

impl ServerHandler for Canvas {
    async fn call_tool(
        &self,
        request: CallToolRequestParam,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        let args = request
            .arguments
            .ok_or_else(|| McpError::invalid_params("missing arguments", None))?;
        match request.name.as_ref() {
            "resize" => {
                let ResizeArgs { width, height } = serde_json::from_value(Value::Object(args))
                    .map_err(|e| McpError::invalid_params(format!("invalid arguments for resize: {e}"), None))?;
                if width * height > 16_000_000 {
                    return Err(McpError::invalid_params(format!("{width}x{height} exceeds 16 megapixels"), None)); //~ tool_input_as_invalid_params
                }
                Ok(CallToolResult::success(vec![Content::text(format!("resized to {width}x{height}"))]))
            }
            "fill" => {
                let color = args
                    .get("color")
                    .ok_or_else(|| McpError::invalid_params("missing required field `color`", None))?
                    .as_str()
                    .ok_or_else(|| McpError::invalid_params("`color` must be a string", None))?;
                if !color.starts_with('#') || color.len() != 7 {
                    return Err(McpError::invalid_params(format!("color must look like #rrggbb, got {color}"), None)); //~ tool_input_as_invalid_params
                }
                Ok(CallToolResult::success(vec![Content::text(format!("filled with {color}"))]))
            }
            other => Err(McpError::invalid_params(format!("Unknown tool: {other}"), None)),
        }
    }
}
