//@ dep: turbomcp = "3.6"
//@ dep: turbomcp-core = "3.6"
//@ dep: serde_json = "1"
// turbomcp 3.x: `McpError::invalid_params(..)` in a `#[server]` `#[tool]` fn is already an isError
// result (the macro converts every `Err`, and its own argument extraction does the same for
// InvalidParams, citing SEP-1303): not this lint, though rmcp's `invalid_params` would be. In a
// hand-written `McpHandler::call_tool` it is a JSON-RPC -32602, and a value check there is this
// lint; the unknown-tool answer `McpError::tool_not_found(..)` (-32602) is not.
use std::future::Future;

use serde_json::Value;
use turbomcp::prelude::*;
use turbomcp_core::ErrorKind;

#[derive(Clone)]
struct Calculator;

#[server(name = "calculator", version = "1.0.0")]
impl Calculator {
    /// Divide a by b.
    #[tool("Divide numbers")]
    async fn divide(&self, a: f64, b: f64) -> McpResult<f64> {
        if b == 0.0 {
            return Err(McpError::invalid_params(format!("Division by zero: {a} / {b}")));
        }
        Ok(a / b)
    }

    /// Square root of a non-negative number.
    #[tool]
    async fn sqrt(&self, x: f64) -> Result<f64, McpError> {
        if x < 0.0 {
            return Err(McpError::new(ErrorKind::InvalidParams, format!("x must be >= 0, got {x}")));
        }
        Ok(x.sqrt())
    }
}

#[derive(Clone)]
struct ManualCalculator;

impl McpHandler for ManualCalculator {
    fn server_info(&self) -> ServerInfo {
        ServerInfo::new("manual-calculator", "1.0.0")
    }

    fn list_tools(&self) -> Vec<Tool> {
        vec![Tool::new("divide", "Divide numbers")]
    }

    fn list_resources(&self) -> Vec<Resource> {
        vec![]
    }

    fn list_prompts(&self) -> Vec<Prompt> {
        vec![]
    }

    fn call_tool<'a>(&'a self, name: &'a str, args: Value, _ctx: &'a RequestContext) -> impl Future<Output = McpResult<ToolResult>> + 'a {
        let name = name.to_string();
        async move {
            match name.as_str() {
                "divide" => {
                    let a = args.get("a").and_then(Value::as_f64).unwrap_or_default();
                    let b = args.get("b").and_then(Value::as_f64).unwrap_or(1.0);
                    if b == 0.0 {
                        return Err(McpError::invalid_params(format!("Division by zero: {a} / {b}"))); //~ tool_input_as_invalid_params
                    }
                    Ok(ToolResult::text((a / b).to_string()))
                }
                _ => Err(McpError::tool_not_found(&name)),
            }
        }
    }

    fn read_resource<'a>(&'a self, uri: &'a str, _ctx: &'a RequestContext) -> impl Future<Output = McpResult<ResourceResult>> + 'a {
        let uri = uri.to_string();
        // -32002 by name: turbomcp 3.6 cannot negotiate 2026-07-28, so, as with rmcp before 1.8, its
        // peers expect it (see legacy_error_code/turbomcp_error_kinds.rs).
        async move { Err(McpError::resource_not_found(&uri)) }
    }

    fn get_prompt<'a>(&'a self, name: &'a str, _args: Option<Value>, _ctx: &'a RequestContext) -> impl Future<Output = McpResult<PromptResult>> + 'a {
        let name = name.to_string();
        async move { Err(McpError::prompt_not_found(&name)) }
    }
}
