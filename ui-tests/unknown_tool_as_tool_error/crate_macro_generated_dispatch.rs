//@ dep: rust-mcp-sdk = "0.7"
//@ dep: async-trait = "0.1"
// Items a crate `macro_rules!` generates are the crate's items (mcp-cpp-server's `register_tools!`
// shape): the call `register_tools! { Cpp { .. } }` expands where it is written to an `impl Cpp`
// with the tool dispatcher `dispatch_tool`, which `handle_call_tool_request` calls. Its fallback
// answers an unknown tool with `CallToolError::unknown_tool(..)`, an isError result in
// rust-mcp-sdk 0.7 (the spec wants -32602): found in the macro's body, where the fix goes. A
// nested item macro (`tool_names!`) expands too. `register_stub!` generates a `dispatch_tool`
// for a type no handler calls: a name matcher would report it, the resolved call does not reach it.
use std::sync::Arc;

use async_trait::async_trait;
use rust_mcp_sdk::{
    mcp_server::ServerHandler,
    schema::{schema_utils::CallToolError, CallToolRequest, CallToolResult, TextContent},
    McpServer,
};

macro_rules! register_tools {
    ($handler:ty { $($name:literal => $method:ident),+ $(,)? }) => {
        impl $handler {
            pub async fn dispatch_tool(&self, tool_name: &str, text: String) -> Result<CallToolResult, CallToolError> {
                match tool_name {
                    $( $name => self.$method(text).await, )+
                    _ => Err(CallToolError::unknown_tool(format!("Unknown tool: {}", tool_name))), //~ unknown_tool_as_tool_error
                }
            }
        }
        tool_names!($($name),+);
    };
}

macro_rules! tool_names {
    ($($name:literal),+) => {
        pub const TOOL_NAMES: &[&str] = &[$($name),+];
    };
}

macro_rules! register_stub {
    ($handler:ident) => {
        pub struct $handler;

        impl $handler {
            pub async fn dispatch_tool(&self, tool_name: &str, _text: String) -> Result<CallToolResult, CallToolError> {
                Err(CallToolError::unknown_tool(format!("{} is not wired up yet", tool_name)))
            }
        }
    };
}

pub struct Cpp;

impl Cpp {
    async fn echo(&self, text: String) -> Result<CallToolResult, CallToolError> {
        Ok(CallToolResult::text_content(vec![TextContent::from(text)]))
    }

    async fn shout(&self, text: String) -> Result<CallToolResult, CallToolError> {
        Ok(CallToolResult::text_content(vec![TextContent::from(text.to_uppercase())]))
    }
}

register_tools! {
    Cpp {
        "echo" => echo,
        "shout" => shout,
    }
}

register_stub!(Pending);

#[async_trait]
impl ServerHandler for Cpp {
    async fn handle_call_tool_request(
        &self,
        request: CallToolRequest,
        _runtime: Arc<dyn McpServer>,
    ) -> std::result::Result<CallToolResult, CallToolError> {
        let text = request.params.arguments.as_ref().and_then(|a| a.get("text")).and_then(|v| v.as_str()).unwrap_or_default().to_string();
        self.dispatch_tool(&request.params.name, text).await
    }
}

pub fn tool_count() -> usize {
    TOOL_NAMES.len()
}
