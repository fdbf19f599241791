//! Starts `mcp-lint server` (found on the worktree's `PATH`) as a language server for Rust
//! files. Zed runs it beside rust-analyzer.

use zed_extension_api::{self as zed, LanguageServerId, Result, Worktree};

struct McpLint;

impl zed::Extension for McpLint {
    fn new() -> Self {
        McpLint
    }

    fn language_server_command(
        &mut self,
        _language_server_id: &LanguageServerId,
        worktree: &Worktree,
    ) -> Result<zed::Command> {
        let command = worktree.which("mcp-lint").ok_or_else(|| {
            "mcp-lint is not on PATH: install it with `cargo install --path .` from a clone of \
             mcp-lint, then restart the language server"
                .to_string()
        })?;
        Ok(zed::Command {
            command,
            args: vec!["server".to_string()],
            env: worktree.shell_env(),
        })
    }
}

zed::register_extension!(McpLint);
