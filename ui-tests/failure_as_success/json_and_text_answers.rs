//@ rmcp = "1.8"
// Tools that answer with text or JSON (`String`, `Json<Value>`): the failure answer is a value
// that says it failed, `{"error": ..}`, `{"success": false, ..}` or "Error: ..", returned as
// success. On an `Err` path that is always this lint; elsewhere only for an early `return`, since
// a tool's data may itself report errors (a validator's findings, a test run's failures).
use rmcp::{
    handler::server::wrapper::{Json, Parameters},
    schemars, tool, tool_router, ErrorData as McpError,
};
use serde_json::{json, Value};

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Query {
    pub path: String,
}

pub struct Files;

#[tool_router]
impl Files {
    #[tool(description = "Size of a file")]
    async fn stat(&self, Parameters(q): Parameters<Query>) -> Json<Value> {
        match std::fs::metadata(&q.path) {
            Ok(m) => Json(json!({ "len": m.len() })),
            Err(e) => Json(json!({ "error": e.to_string() })), //~ failure_as_success
        }
    }

    #[tool(description = "Size of a file, in a Result")]
    async fn stat_result(&self, Parameters(q): Parameters<Query>) -> Result<Json<Value>, McpError> {
        match std::fs::metadata(&q.path) {
            Ok(m) => Ok(Json(json!({ "len": m.len() }))),
            Err(e) => Ok(Json(json!({ "success": false, "message": e.to_string() }))), //~ failure_as_success
        }
    }

    #[tool(description = "Check a path")]
    async fn check(&self, Parameters(q): Parameters<Query>) -> Result<String, McpError> {
        if q.path.is_empty() {
            return Ok(json!({ "error": "path must not be empty" }).to_string()); //~ failure_as_success
        }
        if q.path.contains("..") {
            return Ok(format!("Error: {} leaves the workspace", q.path)); //~ failure_as_success
        }
        Ok(format!("{} is fine", q.path))
    }

    #[tool(description = "Validate a JSON document")]
    async fn validate(&self, Parameters(q): Parameters<Query>) -> Json<Value> {
        // The tool worked: the document's own errors are its answer.
        let problems: Vec<String> = Vec::new();
        if q.path.ends_with(".lock") {
            return Json(json!({ "error": null, "skipped": q.path }));
        }
        Json(json!({ "valid": problems.is_empty(), "success": false, "errors": problems }))
    }
}
