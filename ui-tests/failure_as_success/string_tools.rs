//@ rmcp = "0.3"
// `#[tool]` fns returning `Result<String, String>` or `String`: the `Ok(..)` (or plain) value is a
// success result, so turning the error into it hides the failure; `Err(..)` would have been an
// isError result for free. The error's own rendering (`Err(error) => error.to_json()`) is such a
// value; an answer not built from the error (`Err(_) => Answer { .. }.to_json()`) is not.
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

    #[tool(description = "Evaluate, answering in JSON")]
    async fn eval_json(&self, Parameters(ExprArgs { expression }): Parameters<ExprArgs>) -> String {
        match evaluate(&expression) {
            Ok(v) => v.to_json(),
            Err(error) => error.to_json(), //~ failure_as_success
        }
    }

    #[tool(description = "Evaluate, or answer the last good value")]
    async fn eval_or_last(&self, Parameters(ExprArgs { expression }): Parameters<ExprArgs>) -> String {
        match evaluate(&expression) {
            Ok(v) => v.to_json(),
            Err(_) => Answer { value: 0.0 }.to_json(),
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

pub struct Answer {
    value: f64,
}

impl Answer {
    fn to_json(&self) -> String {
        format!("{{\"value\": {}}}", self.value)
    }
}

/// A failed evaluation, rendered as `{"error": ..}`.
pub struct EvalError(String);

impl EvalError {
    fn to_json(&self) -> String {
        format!("{{\"error\": {:?}}}", self.0)
    }
}

fn evaluate(expression: &str) -> Result<Answer, EvalError> {
    meval::eval_str(expression)
        .map(|value| Answer { value })
        .map_err(|e| EvalError(format!("cannot evaluate {expression:?}: {e}")))
}
