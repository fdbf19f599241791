
// src/service/mod.rs


mod exec;
mod shell;
mod session;

use crate::shell_registry::ShellRegistry;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::{ServerCapabilities, ServerInfo};
use rmcp::{tool_handler, ServerHandler};

#[derive(Clone)]
pub struct TerminalMcpService {
    pub(crate) registry: ShellRegistry,
    pub(crate) tool_router: ToolRouter<Self>,
}

impl TerminalMcpService {
    pub fn new() -> Self {
        Self {
            registry: ShellRegistry::new(),
            tool_router: Self::exec_tool_router()
                + Self::session_tool_router()
                + Self::io_tool_router()
                + Self::pty_tool_router(),
        }
    }
}
#[tool_handler(router = self.tool_router.clone())]
impl ServerHandler for TerminalMcpService {
    fn get_info(&self) -> ServerInfo {
        let mut info = ServerInfo::new(
            ServerCapabilities::builder()
                .enable_tools()
                // .enable_prompts()
                // .enable_resources()
                .build(),
        );
        info.instructions = Some("Shell MCP Core Principles: Use `exec` for one-off, non-blocking commands.
For operations that require maintaining state or multi-turn interactions
(python/node REPL, gdb, ssh, mysql, wscat, sudo confirmation, reverse shells, etc.),
use the closed loop: `shell_spawn -> shell_send_line -> shell_output|shell_wait_for|shell_snapshot -> shell_close`.
After sending each step, you must use `shell_output|shell_wait_for|shell_snapshot` to confirm the state before deciding on the next step. Do not send commands in batches.

shell_output|shell_wait_for will consume the buffer and return empty when no new content is output to the terminal after repeated use. So you can use shell_snapshot to obtain the full screen content of the current terminal to confirm the session status.

".to_string());
        info
    }


}

impl Default for TerminalMcpService {
    fn default() -> Self {
        Self::new()
    }
}