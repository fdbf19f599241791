//@ rmcp = "0.8"
//@ dep: serde_json = "1"
// Tools behind a registry of trait objects: `call_tool` looks the tool up
// (`self.tools.get_key_value(..)`, values `Arc<dyn DynTool>`) and calls it; a blanket
// `impl<T: Tool> DynTool for T` forwards with `self.call(args)`, which runs every `impl Tool`'s
// `call` (Self is bounded by `Tool` only). A unit struct's value (`Lint.call(..)`) is a
// receiver of that struct's type. So `Build`'s and `Lint`'s -32603 are tool failures sent as
// protocol errors. Not: `Startup::call`, a method of the same name of another trait that only the
// server's start-up runs, which a call matched by name would reach.
use std::collections::HashMap;
use std::sync::Arc;

use rmcp::model::{CallToolRequestParam, CallToolResult, Content};
use rmcp::ErrorData as McpError;
use serde_json::Value;

pub trait Tool: Send + Sync {
    fn call(&self, args: Value) -> Result<CallToolResult, McpError>;
}

pub trait DynTool: Send + Sync {
    fn call_rmcp_tool(&self, request: CallToolRequestParam) -> Result<CallToolResult, McpError>;
}

impl<T> DynTool for T
where
    T: Tool,
{
    fn call_rmcp_tool(&self, request: CallToolRequestParam) -> Result<CallToolResult, McpError> {
        let args = Value::Object(request.arguments.unwrap_or_default());
        self.call(args)
    }
}

pub struct Build;

impl Tool for Build {
    fn call(&self, args: Value) -> Result<CallToolResult, McpError> {
        let dir = args["dir"].as_str().unwrap_or(".");
        let out = std::process::Command::new("cargo")
            .arg("build")
            .current_dir(dir)
            .output()
            .map_err(|e| McpError::internal_error(format!("cannot run cargo in {dir}: {e}"), None))?; //~ tool_failure_as_protocol_error
        Ok(CallToolResult::success(vec![Content::text(String::from_utf8_lossy(&out.stdout).to_string())]))
    }
}

pub struct Lint;

impl Tool for Lint {
    fn call(&self, args: Value) -> Result<CallToolResult, McpError> {
        let path = args["path"].as_str().unwrap_or(".");
        let text = std::fs::read_to_string(path)
            .map_err(|e| McpError::internal_error(format!("cannot read {path}: {e}"), None))?; //~ tool_failure_as_protocol_error
        Ok(CallToolResult::success(vec![Content::text(format!("{} lines", text.lines().count()))]))
    }
}

pub trait Check {
    fn call(&self, args: Value) -> Result<CallToolResult, McpError>;
}

pub struct Startup;

impl Check for Startup {
    fn call(&self, _args: Value) -> Result<CallToolResult, McpError> {
        Err(McpError::internal_error("the cache directory is not writable", None))
    }
}

pub struct Server {
    tools: HashMap<&'static str, Arc<dyn DynTool>>,
}

impl Server {
    pub fn new() -> Result<Server, McpError> {
        Startup.call(Value::Null)?;
        let mut tools: HashMap<&'static str, Arc<dyn DynTool>> = HashMap::new();
        tools.insert("build", Arc::new(Build));
        Ok(Server { tools })
    }

    fn run(&self, request: CallToolRequestParam) -> Result<CallToolResult, McpError> {
        if request.name == "lint" {
            return Lint.call(Value::Object(request.arguments.unwrap_or_default()));
        }
        let (&_name, tool) = self
            .tools
            .get_key_value(request.name.as_ref())
            .ok_or_else(|| McpError::invalid_params(format!("Unknown tool: {}", request.name), None))?;
        let tool = Arc::clone(tool);
        tool.call_rmcp_tool(request)
    }
}

impl rmcp::ServerHandler for Server {
    async fn call_tool(
        &self,
        request: CallToolRequestParam,
        _context: rmcp::service::RequestContext<rmcp::RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        self.run(request)
    }
}
