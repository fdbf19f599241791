//@ rmcp = "0.3"
// `#[tool]` fns returning `Result<String, String>` or `String`: the `Ok(..)` (or plain) value is a
// success result, so turning the error into it hides the failure; `Err(..)` would have been an
// isError result for free.
use rmcp::{
    handler::server::tool::{Parameters, ToolRouter},
    schemars, tool, tool_handler, tool_router, ServerHandler,
};
use serde::Deserialize;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct ExprArgs {
    pub expression: String,
}

#[derive(Clone)]
pub struct Calculator {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Calculator {
    #[tool(description = "Evaluate an arithmetic expression")]
    async fn eval(&self, Parameters(ExprArgs { expression }): Parameters<ExprArgs>) -> Result<String, String> {
        match meval::eval_str(&expression) {
            Ok(v) => Ok(v.to_string()),
            Err(e) => Ok(format!("Error: {e}")), //~ failure_as_success
        }
    }

    #[tool(description = "Evaluate and round to an integer")]
    async fn round(&self, Parameters(ExprArgs { expression }): Parameters<ExprArgs>) -> String {
        match meval::eval_str(&expression) {
            Ok(v) => v.round().to_string(),
            Err(e) => e.to_string(), //~ failure_as_success
        }
    }

    #[tool(description = "Evaluate, reporting errors properly")]
    async fn eval_checked(&self, Parameters(ExprArgs { expression }): Parameters<ExprArgs>) -> Result<String, String> {
        match meval::eval_str(&expression) {
            Ok(v) => Ok(v.to_string()),
            Err(e) => Err(format!("cannot evaluate {expression:?}: {e}")),
        }
    }
}

#[tool_handler]
impl ServerHandler for Calculator {}
