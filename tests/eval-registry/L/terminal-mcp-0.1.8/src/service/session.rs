// src/service/session.rs
use super::TerminalMcpService;
use crate::args;
use crate::security::audit;
use rmcp::{handler::server::wrapper::Parameters, schemars, tool, tool_router};
use serde::Deserialize;
use shell_engine::shell::Shell;
use uuid::Uuid;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct SpawnParams {
    /// Interpreter: can be a common shell/interpreter name (bash/sh/zsh/cmd/powershell/python/node),
    /// or an absolute/relative path to an executable to specify a particular version
    /// (e.g., "/usr/local/bin/python3.11", "C:\\nvm\\v20\\node.exe").
    ///
    /// ⚠️ Interactive programs like debuggers (gdb/lldb/windbg), database clients (mysql/psql/redis-cli),
    /// ssh/telnet/nc, etc., are NOT "interpreters" and should NOT be passed here —
    /// you should first start a session using shell_spawn(shell="bash"),
    /// and then use shell_send_line to send them as normal commands.
    pub shell: String,
    /// Unique session identifier
    pub tag: String,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct TagParams {
    /// Unique session identifier
    pub tag: String,
}

#[tool_router(router = session_tool_router, vis = "pub(crate)")]
impl TerminalMcpService {
    #[tool(description = "List tags and shell paths of all interactive shell sessions")]
    async fn shell_list(&self) -> String {
        audit::with_audit("shell_list", serde_json::json!({}), None, || async {
            Ok(serde_json::json!(self.registry.describe_all()))
        })
        .await
    }

    #[tool(description = "Check if an interactive shell session with the specified tag exists")]
    async fn shell_exists(&self, Parameters(TagParams { tag }): Parameters<TagParams>) -> String {
        audit::with_audit("shell_exists", args!(tag), None, || async move {
            Ok(serde_json::json!(self.registry.contains(&tag)))
        })
        .await
    }

    #[tool(
        description = "Create an interactive shell session with the tag as a unique identifier. "
    )]
    async fn shell_spawn(
        &self,
        Parameters(SpawnParams { shell, tag }): Parameters<SpawnParams>,
    ) -> String {
        let uuid = Uuid::new_v4();

        audit::with_audit(
            "shell_spawn",
            args!(tag, shell),
            Some(uuid.to_string()),
            || async move {
                if self.registry.contains(&tag) {
                    return Err(format!("Session '{tag}' already exists"));
                }

                let mut builder = Shell::new(&shell).enable_buffer();

                builder = builder.enable_pty();

                let s = builder.spawn().await.map_err(|e| e.to_string())?;

                self.registry.insert_new(tag, s, uuid)?;

                Ok(serde_json::json!({ "result": "created"}))
            },
        )
        .await
    }

    #[tool(description = "Reset the specified interactive shell session (exit and restart)")]
    async fn shell_reset(&self, Parameters(TagParams { tag }): Parameters<TagParams>) -> String {
        let uuid = self.registry.get_uuid(&tag).ok();

        audit::with_audit("shell_reset", args!(tag), uuid, || async move {
            let shell = self.registry.get(&tag)?;
            shell
                .lock()
                .await
                .reset()
                .await
                .map_err(|e| e.to_string())?;
            Ok(serde_json::json!("reset"))
        })
        .await
    }

    #[tool(
        description = "Closes and deletes the specified interactive shell session. (Note: Please use this method to close the shell after completing your work using a certain shell)"
    )]
    async fn shell_close(&self, Parameters(TagParams { tag }): Parameters<TagParams>) -> String {
        let uuid = self.registry.get_uuid(&tag).ok();

        audit::with_audit("shell_close", args!(tag), uuid, || async move {
            match self.registry.remove(&tag) {
                Some(shell) => {
                    shell.lock().await.close().map_err(|e| e.to_string())?;
                    Ok(serde_json::json!("closed"))
                }
                None => Err(format!("Session '{tag}' does not exist")),
            }
        })
        .await
    }

    #[tool(description = "Close and remove all interactive shell sessions")]
    async fn shell_close_all(&self) -> String {
        audit::with_audit("shell_close_all", serde_json::json!({}), None, || async {
            let (closed, errors) = self.registry.close_all().await;
            Ok(serde_json::json!({ "closed": closed, "errors": errors }))
        })
        .await
    }
}
