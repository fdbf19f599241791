//@ rmcp = "3.11"
// A registry helper two calls below `call_tool` misses the tool by its name
// (`self.get(name).ok_or_else(|| ToolError::not_found(..))?` in a fn failing with the crate
// struct `ToolError`), `dispatch` passes the error on with `?`, and `call_tool`'s one `Err` arm
// answers it with an isError result: that miss is the unknown-tool answer, reported at the error
// value. What `dispatch` gets back from the tool it picked (`(entry.run)(arguments)`) is no
// unknown tool.
use std::collections::HashMap;

use rmcp::{
    model::{CallToolRequestParams, CallToolResponse, CallToolResult},
    service::RequestContext,
    ErrorData as McpError, RoleServer, ServerHandler,
};
use serde_json::Value;

pub struct ToolError {
    message: String,
}

impl ToolError {
    pub fn not_found(what: &str) -> Self {
        ToolError { message: format!("{what} was not found") }
    }
    pub fn to_value(&self) -> Value {
        serde_json::json!({ "error": self.message })
    }
}

pub type ToolResult<T> = Result<T, ToolError>;

pub struct Entry {
    pub run: fn(Value) -> Result<Value, ToolError>,
}

pub struct Registry {
    entries: HashMap<String, Entry>,
}

impl Registry {
    pub fn get(&self, name: &str) -> Option<&Entry> {
        self.entries.get(name)
    }
    pub fn resolve(&self, name: &str) -> ToolResult<&Entry> {
        let entry = self
            .get(name)
            .ok_or_else(|| ToolError::not_found(&format!("the tool `{name}`")))?; //~ unknown_tool_as_tool_error
        Ok(entry)
    }
}

pub struct Server {
    registry: std::sync::Arc<Registry>,
}

impl Server {
    async fn dispatch(&self, request: CallToolRequestParams) -> ToolResult<Value> {
        let arguments = Value::Object(request.arguments.unwrap_or_default());
        let entry = self.registry.resolve(&request.name)?;
        (entry.run)(arguments)
    }
}

impl ServerHandler for Server {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let result = match self.dispatch(request).await {
            Ok(value) => CallToolResult::structured(value),
            Err(error) => CallToolResult::structured_error(error.to_value()),
        };
        Ok(CallToolResponse::Complete(result))
    }
}

fn main() {}
