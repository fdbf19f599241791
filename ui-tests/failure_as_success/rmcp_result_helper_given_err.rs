//@ rmcp = "0.8"
// A helper answers the `Result` it is handed both ways (`finish(r)`: `Ok` -> a structured success
// result, built there or by one more helper, `Err` -> an isError result). A tool that hands it a
// literal `Err(e)` on a failure path gets the isError answer: nothing to report. Handing it an
// `Ok(..)` there answers the failure with a success result (fires at that call).
use rmcp::{model::*, tool, tool_router, ErrorData as McpError};
use serde_json::Value;

#[derive(Debug)]
pub struct AppError(String);

impl std::fmt::Display for AppError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

fn finish(r: Result<Value, AppError>) -> Result<CallToolResult, McpError> {
    match r {
        Ok(v) => Ok(CallToolResult::structured(v)),
        Err(e) => Ok(CallToolResult::error(vec![Content::text(e.to_string())])),
    }
}

fn finish_json(v: Value) -> Result<CallToolResult, McpError> {
    Ok(CallToolResult::structured(v))
}

fn finish_via(r: Result<Value, AppError>) -> Result<CallToolResult, McpError> {
    match r {
        Ok(v) => finish_json(v),
        Err(e) => Ok(CallToolResult::error(vec![Content::text(e.to_string())])),
    }
}

pub struct S;

impl S {
    async fn lookup(&self, id: &str) -> Result<Value, AppError> {
        Err(AppError(format!("no course {id}")))
    }
}

#[tool_router]
impl S {
    #[tool(description = "Get a course")]
    async fn course(&self, id: String) -> Result<CallToolResult, McpError> {
        let v = match self.lookup(&id).await {
            Ok(v) => v,
            Err(e) => return finish(Err(e)),
        };
        finish(Ok(v))
    }

    #[tool(description = "Get a course's grades")]
    async fn grades(&self, id: String) -> Result<CallToolResult, McpError> {
        match self.lookup(&id).await {
            Ok(v) => finish_via(Ok(v)),
            Err(e) => finish_via(Err(e)),
        }
    }

    #[tool(description = "Get a course, or nothing")]
    async fn course_or_null(&self, id: String) -> Result<CallToolResult, McpError> {
        match self.lookup(&id).await {
            Ok(v) => finish(Ok(v)),
            Err(_) => finish(Ok(Value::Null)), //~ failure_as_success
        }
    }
}
