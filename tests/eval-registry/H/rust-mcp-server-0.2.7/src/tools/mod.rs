pub mod cargo;
pub mod cargo_deny;
pub mod cargo_hack;
pub mod cargo_machete;
pub mod rustc;
pub mod rustup;

use rust_mcp_sdk::schema::{
    Annotations, CallToolRequest, CallToolResult, Role, TextContent, schema_utils::CallToolError,
};

use cargo::{
    CargoAddTool, CargoBuildTool, CargoCheckTool, CargoCleanTool, CargoClippyTool, CargoDocTool,
    CargoFmtTool, CargoGenerateLockfileTool, CargoInfoTool, CargoListTool, CargoMetadataTool,
    CargoNewTool, CargoPackageTool, CargoRemoveTool, CargoSearchTool, CargoTestTool,
    CargoUpdateTool,
};
use cargo_deny::{CargoDenyCheckTool, CargoDenyInitTool, CargoDenyInstallTool, CargoDenyListTool};
use cargo_hack::{CargoHackInstallTool, CargoHackTool};
use cargo_machete::{CargoMacheteInstallTool, CargoMacheteTool};
use rustc::RustcExplainTool;
use rustup::{RustupShowTool, RustupToolchainAddTool, RustupUpdateTool};

static WORKSPACE_ROOT: std::sync::OnceLock<String> = std::sync::OnceLock::new();

pub fn set_workspace_root(root: String) {
    WORKSPACE_ROOT
        .set(root)
        .expect("Workspace root can only be set once");
}

fn apply_workspace_root(cmd: &mut std::process::Command) {
    if let Some(root) = WORKSPACE_ROOT.get() {
        cmd.current_dir(root);
    }
}

fn execute_command(
    mut cmd: std::process::Command,
    tool_name: &str,
) -> Result<CallToolResult, CallToolError> {
    apply_workspace_root(&mut cmd);
    tracing::info!(
        command = ?cmd,
        tool_name = tool_name,
        "Executing command"
    );
    let output = cmd.output();

    match output {
        Ok(output) => {
            let stdout = String::from_utf8_lossy(output.stdout.trim_ascii());
            let stderr = String::from_utf8_lossy(output.stderr.trim_ascii());

            let mut content = Vec::new();
            if output.status.success() {
                tracing::info!(
                    stdout = ?stdout,
                    stderr = ?stderr,
                    tool_name = tool_name,
                    "Command executed successfully"
                );
                let annotations = Some(Annotations {
                    audience: vec![Role::User, Role::Assistant],
                    last_modified: None,
                    priority: Some(0.3),
                });
                content.push(
                    TextContent::new(format!("✅ {tool_name}: Success"), annotations, None).into(),
                );
            } else {
                tracing::warn!(
                    stdout = ?stdout,
                    stderr = ?stderr,
                    status = ?output.status,
                    tool_name = tool_name,
                    "Command execution failed",
                );
                let annotations = Some(Annotations {
                    audience: vec![Role::User, Role::Assistant],
                    last_modified: None,
                    priority: Some(0.3),
                });
                content.push(
                    TextContent::new(format!("❌ {tool_name}: Failure"), annotations, None).into(),
                );
            }

            if !stdout.is_empty() {
                let annotations = Some(Annotations {
                    audience: vec![Role::User, Role::Assistant],
                    last_modified: None,
                    priority: Some(0.2),
                });
                content.push(TextContent::new(stdout.into(), annotations, None).into());
            }
            if !stderr.is_empty() {
                let annotations = Some(Annotations {
                    audience: vec![Role::User, Role::Assistant],
                    last_modified: None,
                    priority: Some(1.),
                });
                content.push(TextContent::new(stderr.into(), annotations, None).into());
            }
            Ok(CallToolResult {
                content,
                is_error: Some(!output.status.success()),
                meta: None,
                structured_content: None,
            })
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            tracing::error!(error = ?e, "Command not found");
            let annotations = Some(Annotations {
                audience: vec![Role::User, Role::Assistant],
                last_modified: None,
                priority: Some(1.),
            });
            let program = cmd.get_program().to_string_lossy();
            let item = TextContent::new(
                format!(
                    "The command `{program}` was not found, please ensure it is installed and accessible. You can try running the following command yourself to verify: `{program} {}`",
                    cmd.get_args()
                        .map(|arg| arg.to_string_lossy())
                        .collect::<Vec<_>>()
                        .join(" ")
                ),
                annotations,
                None,
            );

            Ok(CallToolResult {
                content: vec![item.into()],
                is_error: Some(true),
                meta: None,
                structured_content: None,
            })
        }
        Err(e) => {
            tracing::error!(error = ?e, "Failed to execute command");
            Err(CallToolError::new(e))
        }
    }
}

rust_mcp_sdk::tool_box!(
    AllTools,
    [
        CargoBuildTool,
        CargoCleanTool,
        CargoFmtTool,
        CargoCheckTool,
        CargoClippyTool,
        CargoDocTool,
        CargoGenerateLockfileTool,
        CargoHackTool,
        CargoHackInstallTool,
        CargoMacheteTool,
        CargoMacheteInstallTool,
        CargoDenyCheckTool,
        CargoDenyInitTool,
        CargoDenyListTool,
        CargoDenyInstallTool,
        CargoAddTool,
        CargoRemoveTool,
        CargoNewTool,
        CargoListTool,
        CargoPackageTool,
        CargoUpdateTool,
        CargoTestTool,
        CargoMetadataTool,
        RustcExplainTool,
        RustupShowTool,
        RustupToolchainAddTool,
        RustupUpdateTool,
        CargoSearchTool,
        CargoInfoTool,
    ]
);

/// Handles incoming CallToolRequest and processes it using the appropriate tool.
pub fn handle_request(
    request: CallToolRequest,
    disabled_tools: &[String],
) -> Result<CallToolResult, CallToolError> {
    if disabled_tools.contains(&request.params.name) {
        tracing::warn!(
            tool_name = ?request.params.name,
            "Tool is disabled, returning error"
        );
        return Err(CallToolError::unknown_tool(request.params.name));
    }

    let tool_params: AllTools = AllTools::try_from(request.params.clone()).map_err(|e| {
        tracing::error!(
            error = ?e,
            request = ?request,
            "Failed to parse request parameters"
        );
        CallToolError::new(e)
    })?;

    match tool_params {
        AllTools::CargoBuildTool(tool) => tool.call_tool(),
        AllTools::CargoCleanTool(tool) => tool.call_tool(),
        AllTools::CargoFmtTool(tool) => tool.call_tool(),
        AllTools::CargoCheckTool(tool) => tool.call_tool(),
        AllTools::CargoClippyTool(tool) => tool.call_tool(),
        AllTools::CargoDocTool(tool) => tool.call_tool(),
        AllTools::CargoGenerateLockfileTool(tool) => tool.call_tool(),
        AllTools::CargoHackTool(tool) => tool.call_tool(),
        AllTools::CargoHackInstallTool(tool) => tool.call_tool(),
        AllTools::CargoMacheteTool(tool) => tool.call_tool(),
        AllTools::CargoMacheteInstallTool(tool) => tool.call_tool(),
        AllTools::CargoDenyCheckTool(tool) => tool.call_tool(),
        AllTools::CargoDenyInitTool(tool) => tool.call_tool(),
        AllTools::CargoDenyListTool(tool) => tool.call_tool(),
        AllTools::CargoDenyInstallTool(tool) => tool.call_tool(),
        AllTools::CargoAddTool(tool) => tool.call_tool(),
        AllTools::CargoRemoveTool(tool) => tool.call_tool(),
        AllTools::CargoNewTool(tool) => tool.call_tool(),
        AllTools::CargoListTool(tool) => tool.call_tool(),
        AllTools::CargoPackageTool(tool) => tool.call_tool(),
        AllTools::CargoUpdateTool(tool) => tool.call_tool(),
        AllTools::CargoTestTool(tool) => tool.call_tool(),
        AllTools::CargoMetadataTool(tool) => tool.call_tool(),
        AllTools::RustcExplainTool(tool) => tool.call_tool(),
        AllTools::RustupShowTool(tool) => tool.call_tool(),
        AllTools::RustupToolchainAddTool(tool) => tool.call_tool(),
        AllTools::RustupUpdateTool(tool) => tool.call_tool(),
        AllTools::CargoSearchTool(tool) => tool.call_tool(),
        AllTools::CargoInfoTool(tool) => tool.call_tool(),
    }
}

#[cfg(test)]
mod tests {
    use std::process::Command;

    use super::*;

    #[test]
    fn test_execute_command_with_nonexistent_tool() {
        // Try to execute a command that does not exist
        let mut cmd = Command::new("this_tool_does_not_exist");
        cmd.args(["--arg1", "value1", "--arg2", "value2"]);

        let result = execute_command(cmd, "test-tool").expect("Command execution should not panic");
        let text = &result.content[0]
            .as_text_content()
            .expect("First content item should be text")
            .text;

        println!("Command output: {text}");

        assert_eq!(result.is_error, Some(true));
        assert!(!result.content.is_empty());
        assert!(text.contains("The command `this_tool_does_not_exist` was not found"));
    }
}
