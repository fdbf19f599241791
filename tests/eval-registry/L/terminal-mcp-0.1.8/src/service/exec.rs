// src/service/exec.rs
use super::TerminalMcpService;
use crate::{args,config};
use rmcp::{handler::server::wrapper::Parameters, schemars, tool, tool_router};
use shell_engine::exec::exec;
use std::time::Duration;
use serde::Deserialize;
use crate::security::audit;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct ExecParams {
    /// Command content to execute
    pub input: String,
    /// Interpreter: can be a common shell/interpreter name (bash/sh/zsh/cmd/powershell/python/node),
    /// or an absolute/relative path to an executable to specify a particular version
    /// (e.g., "/usr/local/bin/python3.11", "C:\\nvm\\v20\\node.exe").
    pub shell: String,
    /// Timeout in milliseconds, default 3000
    pub timeout_ms: Option<u64>,
}

#[tool_router(router = exec_tool_router, vis = "pub(crate)")]
impl TerminalMcpService {
    #[tool(
        description = "Execute a command once using the specified shell interpreter (sh/bash/cmd/powershell/python, etc.), process exits after execution"
    )]
    async fn exec(
        &self,
        Parameters(ExecParams {
            input,
            shell,
            timeout_ms,
        }): Parameters<ExecParams>,
    ) -> String {
        let timeout = Duration::from_millis(timeout_ms.unwrap_or(config::EXEC_TIMEOUT_MS));
        let audit_input = input.clone();
        let audit_shell = shell.clone();

        audit::with_audit(
            "exec",
            args!(audit_shell, audit_input),
            None,
            || async move {
                exec(input, shell, Some(timeout))
                    .await
                    .map(|res| serde_json::to_value(res).unwrap_or(serde_json::Value::Null))
                    .map_err(|e| e.to_string())
            },
        )
        .await
    }
}
