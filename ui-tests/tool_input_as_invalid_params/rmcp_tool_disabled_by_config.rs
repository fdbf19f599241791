//@ rmcp = "1.8"
// A tool the server's configuration turns off (`if self.config.disable_sudo { return
// Err(invalid_params("sudo_shell tool is disabled")) }` in a hand-written `call_tool`) refuses
// the request on the server's own setting, read only from `self`: no argument value is
// rejected, MCP006 stays silent. A refusal on the model's argument (`if command.is_empty()`) is
// reported, and so is the server's setting tested inside a branch the model's argument chose
// (`if let Some(filter) = .. { if !self.config.allow_filters { .. } }`): the model sent a value
// this server does not take.
use rmcp::{
    model::{CallToolRequestParams, CallToolResult, Content},
    service::RequestContext,
    ErrorData as McpError, RoleServer, ServerHandler,
};

pub struct Config {
    pub disable_sudo: bool,
    pub allow_filters: bool,
}

pub struct Shell {
    config: Config,
}

impl ServerHandler for Shell {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        let tool_name: &str = request.name.as_ref();
        let command = request
            .arguments
            .as_ref()
            .and_then(|a| a.get("command"))
            .and_then(|c| c.as_str())
            .unwrap_or_default()
            .to_string();
        match tool_name {
            "sudo_shell" => {
                if self.config.disable_sudo {
                    return Err(McpError::invalid_params("sudo_shell tool is disabled", None));
                }
                if command.is_empty() {
                    return Err(McpError::invalid_params("command must not be empty", None)); //~ tool_input_as_invalid_params
                }
                Ok(CallToolResult::success(vec![Content::text(format!("ran {command}"))]))
            }
            "find" => {
                if let Some(filter) = request.arguments.as_ref().and_then(|a| a.get("filter")) {
                    if !self.config.allow_filters {
                        return Err(McpError::invalid_params("filters are disabled", None)); //~ tool_input_as_invalid_params
                    }
                    return Ok(CallToolResult::success(vec![Content::text(format!("filtered by {filter}"))]));
                }
                Ok(CallToolResult::success(vec![Content::text("all")]))
            }
            _ => Err(McpError::invalid_params(format!("unknown tool {tool_name}"), None)),
        }
    }
}

fn main() {}
