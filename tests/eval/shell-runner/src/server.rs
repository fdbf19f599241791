use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolRequestParam, CallToolResult, Implementation, ListToolsResult, PaginatedRequestParam,
    ServerCapabilities, ServerInfo,
};
use rmcp::service::RequestContext;
use rmcp::{schemars, tool, tool_router, RoleServer, ServerHandler};
use serde::Deserialize;

use crate::config::Config;
use crate::router::command_route;
use crate::McpError;

const ALLOWED_ENV: &[&str] = &["PATH", "HOME", "LANG", "CARGO_HOME", "RUSTUP_TOOLCHAIN"];

#[derive(Clone)]
pub struct ShellServer {
    config: Arc<Config>,
    router: ToolRouter<Self>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct EnvArg {
    /// Name of the environment variable
    pub name: String,
}

#[tool_router]
impl ShellServer {
    pub fn new(config: Config) -> Self {
        let mut router = Self::tool_router();
        for spec in &config.commands {
            router.add_route(command_route(spec.clone()));
        }
        Self {
            config: Arc::new(config),
            router,
        }
    }

    pub fn timeout(&self) -> Duration {
        self.config.timeout()
    }

    /// A subdirectory of the work directory, or an explanation for the model.
    pub fn resolve_cwd(&self, sub: Option<&str>) -> Result<PathBuf, String> {
        let Some(sub) = sub else {
            return Ok(self.config.workdir.clone());
        };
        if sub.split('/').any(|part| part == "..") {
            return Err(format!("cwd {sub:?} may not contain '..'"));
        }
        let dir = self.config.workdir.join(sub.trim_start_matches('/'));
        if !dir.is_dir() {
            return Err(format!(
                "cwd {sub:?} is not a directory under {}",
                self.config.workdir.display()
            ));
        }
        Ok(dir)
    }

    #[tool(description = "List the commands this server can run")]
    async fn list_commands(&self) -> Result<CallToolResult, McpError> {
        let lines: Vec<String> = self
            .config
            .commands
            .iter()
            .map(|c| {
                format!(
                    "{}: {} {} (extra args starting with {:?})",
                    c.name,
                    c.program,
                    c.fixed_args.join(" "),
                    c.allowed_prefixes
                )
            })
            .collect();
        Ok(CallToolResult::success(vec![rmcp::model::Content::text(
            lines.join("\n"),
        )]))
    }

    #[tool(description = "Read an allow-listed environment variable")]
    fn env_var(&self, Parameters(EnvArg { name }): Parameters<EnvArg>) -> Result<String, String> {
        if !ALLOWED_ENV.contains(&name.as_str()) {
            return Err(format!(
                "{name} is not readable; allowed variables are {}",
                ALLOWED_ENV.join(", ")
            ));
        }
        std::env::var(&name).map_err(|e| format!("{name}: {e}"))
    }
}

impl ServerHandler for ShellServer {
    fn get_info(&self) -> ServerInfo {
        ServerInfo {
            capabilities: ServerCapabilities::builder().enable_tools().build(),
            server_info: Implementation::from_build_env(),
            instructions: Some(format!(
                "Runs allow-listed commands in {}. Non-zero exits are reported as errors.",
                self.config.workdir.display()
            )),
            ..Default::default()
        }
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParam>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        Ok(ListToolsResult {
            tools: self.router.list_all(),
            next_cursor: None,
            meta: None,
        })
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParam,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        tracing::debug!(tool = %request.name, "call");
        self.router
            .call(ToolCallContext::new(self, request, context))
            .await
    }
}
