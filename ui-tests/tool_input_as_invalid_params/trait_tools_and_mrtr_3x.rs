//@ rmcp = "3.11"
// rmcp 3.x: trait tools (`SyncTool`, whose `Err` is always a protocol error) rejecting a value
// with -32602 are reported; a manual dispatcher's protocol-level check of `input_responses`
// (the MRTR retry state, SEP-2322) is not an argument check and is not.
use std::borrow::Cow;

use rmcp::{
    handler::server::router::tool::{SyncTool, ToolBase, ToolRouter},
    model::{CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock},
    schemars,
    service::RequestContext,
    ErrorData as McpError, RoleServer, ServerHandler,
};
use serde::{Deserialize, Serialize};

#[derive(Deserialize, schemars::JsonSchema, Default)]
pub struct TempInput {
    pub celsius: f64,
}

#[derive(Serialize, schemars::JsonSchema)]
pub struct TempOutput {
    pub fahrenheit: f64,
}

pub struct ToFahrenheit;

impl ToolBase for ToFahrenheit {
    type Parameter = TempInput;
    type Output = TempOutput;
    type Error = McpError;

    fn name() -> Cow<'static, str> {
        "to_fahrenheit".into()
    }
}

impl SyncTool<Thermo> for ToFahrenheit {
    fn invoke(_service: &Thermo, param: TempInput) -> Result<TempOutput, McpError> {
        if param.celsius < -273.15 {
            return Err(McpError::invalid_params(format!("{} °C is below absolute zero", param.celsius), None)); //~ tool_input_as_invalid_params
        }
        Ok(TempOutput { fahrenheit: param.celsius * 9.0 / 5.0 + 32.0 })
    }
}

#[derive(Clone)]
pub struct Thermo {
    router: std::sync::Arc<ToolRouter<Self>>,
}

impl ServerHandler for Thermo {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        match request.name.as_ref() {
            "calibrate" => {
                let responses = request.input_responses.clone().unwrap_or_default();
                if !responses.contains_key("confirm") {
                    return Err(McpError::invalid_params("inputResponses lacks the `confirm` key this server requested", None));
                }
                Ok(CallToolResult::success(vec![ContentBlock::text("calibrated")]).into())
            }
            _ => Err(McpError::invalid_params(format!("Unknown tool: {}", request.name), None)),
        }
    }
}
