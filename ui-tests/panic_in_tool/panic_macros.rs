//@ rmcp = "0.8"
// `panic!`, `todo!`, `unimplemented!` and `unreachable!` in tool context; the span is the macro
// invocation. `assert!` is not in the list.
use rmcp::{
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{CallToolResult, Content},
    schemars, tool, tool_handler, tool_router, ErrorData as McpError, ServerHandler,
};
use serde::Deserialize;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct ShapeArgs {
    pub kind: String,
    pub size: f64,
}

#[derive(Clone)]
pub struct Geometry {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Geometry {
    #[tool(description = "Area of a shape")]
    async fn area(&self, Parameters(ShapeArgs { kind, size }): Parameters<ShapeArgs>) -> Result<CallToolResult, McpError> {
        assert!(size.is_finite());
        let area = match kind.as_str() {
            "square" => size * size,
            "circle" => std::f64::consts::PI * size * size,
            "triangle" => todo!("triangles need a second side"), //~ panic_in_tool
            other => panic!("unsupported shape {other}"), //~ panic_in_tool
        };
        Ok(CallToolResult::success(vec![Content::text(area.to_string())]))
    }

    #[tool(description = "Perimeter of a shape")]
    async fn perimeter(&self, Parameters(ShapeArgs { kind, size }): Parameters<ShapeArgs>) -> Result<CallToolResult, McpError> {
        let sides = match kind.as_str() {
            "square" => 4.0,
            "hexagon" => 6.0,
            _ => unimplemented!(), //~ panic_in_tool
        };
        if sides < 3.0 {
            unreachable!("every polygon above has at least three sides"); //~ panic_in_tool
        }
        Ok(CallToolResult::success(vec![Content::text((sides * size).to_string())]))
    }
}

#[tool_handler]
impl ServerHandler for Geometry {}
