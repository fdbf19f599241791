//@ dep: rust-mcp-sdk = "2.0"
//@ dep: async-trait = "0.1"
// rust-mcp-sdk 2.x, `ServerHandlerCore::handle_request`: the unknown-tool answer is a protocol
// error here, so it is never unknown_tool_as_tool_error; it is unknown_tool_wrong_code when the
// code is not -32602 or the message does not name the tool. The first handler is the SDK's own
// `example_server_handler_core.rs`: `.map_err(|_| CallToolError::unknown_tool(..))?` crosses
// `From<CallToolError> for RpcError` and leaves as -32603 "Unknown tool: <name>" (reported where
// the `?` expression starts), and its tool failures become -32603 too
// (tool_failure_as_protocol_error). The second answers -32601
// (wrong code), the third -32602 without the name, the fourth is right.
use std::sync::Arc;

use async_trait::async_trait;
use rust_mcp_sdk::{
    macros::{mcp_tool, JsonSchema},
    mcp_server::ServerHandlerCore,
    schema::{
        schema_utils::CallToolError, CallToolRequestParams, CallToolResult, NotificationFromClient, RequestFromClient,
        RpcError, ServerResult, TextContent,
    },
    tool_box, McpServer, RequestContext,
};

#[mcp_tool(name = "say_hello", description = "Greet someone by name")]
#[derive(Debug, serde::Deserialize, serde::Serialize, JsonSchema)]
pub struct SayHelloTool {
    name: String,
}

impl SayHelloTool {
    pub fn call_tool(&self) -> Result<CallToolResult, CallToolError> {
        if self.name.trim().is_empty() {
            return Err(CallToolError::from_message("name must not be blank; pass the person's name"));
        }
        Ok(CallToolResult::text_content(vec![TextContent::from(format!("Hello, {}!", self.name))]))
    }
}

#[mcp_tool(name = "say_goodbye", description = "Say goodbye to someone by name")]
#[derive(Debug, serde::Deserialize, serde::Serialize, JsonSchema)]
pub struct SayGoodbyeTool {
    name: String,
}

impl SayGoodbyeTool {
    pub fn call_tool(&self) -> Result<CallToolResult, CallToolError> {
        Ok(CallToolResult::text_content(vec![TextContent::from(format!("Goodbye, {}!", self.name))]))
    }
}

tool_box!(GreetingTools, [SayHelloTool, SayGoodbyeTool]);

fn text_of(params: &CallToolRequestParams) -> String {
    params.arguments.as_ref().and_then(|a| a.get("text")).and_then(|v| v.as_str()).unwrap_or_default().to_string()
}

pub struct ExampleCore;
pub struct MethodNotFoundCore;
pub struct NamelessCore;
pub struct SpecCore;

#[async_trait]
impl ServerHandlerCore for ExampleCore {
    async fn handle_request(
        &self,
        request: RequestFromClient,
        _context: &RequestContext,
        _runtime: Arc<dyn McpServer>,
    ) -> std::result::Result<ServerResult, RpcError> {
        let method_name = request.method().to_owned();
        match request {
            RequestFromClient::CallToolRequest(params) => {
                let tool_name = params.name.to_string();
                let tool_params = GreetingTools::try_from(params)
                    .map_err(|_| CallToolError::unknown_tool(tool_name.clone()))?;
                //~^^ unknown_tool_wrong_code
                // (The finding starts where the `?` expression starts: `GreetingTools::try_from`.)
                let result = match tool_params {
                    GreetingTools::SayHelloTool(say_hello_tool) => say_hello_tool
                        .call_tool()
                        .map_err(|err| RpcError::internal_error().with_message(err.to_string()))?, //~ tool_failure_as_protocol_error
                    // `SayGoodbyeTool::call_tool` returns `Ok(..)` on every path: the mapping never runs.
                    GreetingTools::SayGoodbyeTool(say_goodbye_tool) => say_goodbye_tool
                        .call_tool()
                        .map_err(|err| RpcError::internal_error().with_message(err.to_string()))?,
                };
                Ok(result.into())
            }
            _ => Err(RpcError::method_not_found().with_message(format!("No handler is implemented for '{method_name}'.",))),
        }
    }

    async fn handle_notification(&self, _n: NotificationFromClient, _runtime: Arc<dyn McpServer>) -> std::result::Result<(), RpcError> {
        Ok(())
    }

    async fn handle_error(&self, _error: &RpcError, _runtime: Arc<dyn McpServer>) -> std::result::Result<(), RpcError> {
        Ok(())
    }
}

#[async_trait]
impl ServerHandlerCore for MethodNotFoundCore {
    async fn handle_request(
        &self,
        request: RequestFromClient,
        _context: &RequestContext,
        _runtime: Arc<dyn McpServer>,
    ) -> std::result::Result<ServerResult, RpcError> {
        match request {
            RequestFromClient::CallToolRequest(params) => match params.name.as_str() {
                "echo" => Ok(CallToolResult::text_content(vec![TextContent::from(text_of(&params))]).into()),
                name => Err(RpcError::method_not_found().with_message(format!("Unknown tool: {name}"))), //~ unknown_tool_wrong_code
            },
            other => Err(RpcError::method_not_found().with_message(format!("No handler is implemented for '{}'.", other.method()))),
        }
    }

    async fn handle_notification(&self, _n: NotificationFromClient, _runtime: Arc<dyn McpServer>) -> std::result::Result<(), RpcError> {
        Ok(())
    }

    async fn handle_error(&self, _error: &RpcError, _runtime: Arc<dyn McpServer>) -> std::result::Result<(), RpcError> {
        Ok(())
    }
}

#[async_trait]
impl ServerHandlerCore for NamelessCore {
    async fn handle_request(
        &self,
        request: RequestFromClient,
        _context: &RequestContext,
        _runtime: Arc<dyn McpServer>,
    ) -> std::result::Result<ServerResult, RpcError> {
        match request {
            RequestFromClient::CallToolRequest(params) => match params.name.as_str() {
                "echo" => Ok(CallToolResult::text_content(vec![TextContent::from(text_of(&params))]).into()),
                _ => Err(RpcError::invalid_params().with_message("tool not found")), //~ unknown_tool_wrong_code
            },
            other => Err(RpcError::method_not_found().with_message(format!("No handler is implemented for '{}'.", other.method()))),
        }
    }

    async fn handle_notification(&self, _n: NotificationFromClient, _runtime: Arc<dyn McpServer>) -> std::result::Result<(), RpcError> {
        Ok(())
    }

    async fn handle_error(&self, _error: &RpcError, _runtime: Arc<dyn McpServer>) -> std::result::Result<(), RpcError> {
        Ok(())
    }
}

#[async_trait]
impl ServerHandlerCore for SpecCore {
    async fn handle_request(
        &self,
        request: RequestFromClient,
        _context: &RequestContext,
        _runtime: Arc<dyn McpServer>,
    ) -> std::result::Result<ServerResult, RpcError> {
        match request {
            RequestFromClient::CallToolRequest(params) => match params.name.as_str() {
                "echo" => Ok(CallToolResult::text_content(vec![TextContent::from(text_of(&params))]).into()),
                name => Err(RpcError::invalid_params().with_message(format!("Unknown tool: {name}"))),
            },
            other => Err(RpcError::method_not_found().with_message(format!("No handler is implemented for '{}'.", other.method()))),
        }
    }

    async fn handle_notification(&self, _n: NotificationFromClient, _runtime: Arc<dyn McpServer>) -> std::result::Result<(), RpcError> {
        Ok(())
    }

    async fn handle_error(&self, _error: &RpcError, _runtime: Arc<dyn McpServer>) -> std::result::Result<(), RpcError> {
        Ok(())
    }
}
