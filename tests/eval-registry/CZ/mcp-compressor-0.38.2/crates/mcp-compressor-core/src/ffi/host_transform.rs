use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::client_gen::cli::CliGenerator;
use crate::client_gen::generator::{
    artifact_map, ClientGenerator, GeneratedArtifact, GeneratorConfig,
};
use crate::client_gen::python::PythonGenerator;
use crate::client_gen::typescript::TypeScriptGenerator;
use crate::ffi::client_gen::FfiClientArtifactKind;
use crate::ffi::dto::{FfiGeneratorConfig, FfiTool};
use crate::Error;

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum FfiHostTransformKind {
    Cli,
    JustBash,
    Python,
    #[serde(rename = "typescript")]
    TypeScript,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct FfiHostTransformConfig {
    pub kind: FfiHostTransformKind,
    pub server_name: String,
    pub tools: Vec<FfiTool>,
    pub output_dir: Option<PathBuf>,
    pub command_name: Option<String>,
    pub bridge_url: Option<String>,
    pub token: Option<String>,
    pub session_pid: Option<u32>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct FfiHostTransformPlan {
    pub help_tool_name: String,
    pub help_description: String,
    pub output_dir: Option<PathBuf>,
    pub files: BTreeMap<String, String>,
    pub paths: Vec<PathBuf>,
    pub environment: BTreeMap<String, String>,
    pub just_bash: Option<FfiHostJustBashPlan>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct FfiHostJustBashPlan {
    pub provider_name: String,
    pub command_name: String,
    pub help_tool_name: String,
    pub commands: Vec<FfiHostJustBashCommandPlan>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct FfiHostJustBashCommandPlan {
    pub command_name: String,
    pub backend_tool_name: String,
    pub description: Option<String>,
    pub input_schema: Value,
}

pub fn build_host_transform_plan(
    config: FfiHostTransformConfig,
) -> Result<FfiHostTransformPlan, Error> {
    let server_name = normalize_server_name(Some(config.server_name));
    let help_tool_name = format!("{server_name}_help");
    match config.kind {
        FfiHostTransformKind::JustBash => {
            let help_description =
                shell_tool_help_description(&server_name, &server_name, &config.tools);
            let commands = config
                .tools
                .iter()
                .map(|tool| FfiHostJustBashCommandPlan {
                    command_name: cli_subcommand_name(&tool.name),
                    backend_tool_name: tool.name.clone(),
                    description: tool.description.clone(),
                    input_schema: tool.input_schema.clone(),
                })
                .collect();
            Ok(FfiHostTransformPlan {
                help_tool_name: help_tool_name.clone(),
                help_description,
                output_dir: None,
                files: BTreeMap::new(),
                paths: Vec::new(),
                environment: BTreeMap::new(),
                just_bash: Some(FfiHostJustBashPlan {
                    provider_name: server_name.clone(),
                    command_name: server_name,
                    help_tool_name,
                    commands,
                }),
            })
        }
        FfiHostTransformKind::Cli => {
            let output_dir = config.output_dir.unwrap_or_else(default_cli_output_dir);
            let command_name = config.command_name.unwrap_or_else(|| server_name.clone());
            let generator_config = generator_config(
                &server_name,
                &output_dir,
                config.tools.clone(),
                config.bridge_url,
                config.token,
                config.session_pid,
            );
            let artifacts = CliGenerator.render(&generator_config)?;
            let files = artifact_map(&artifacts);
            let paths = artifact_paths(&artifacts, &output_dir);
            let help_description =
                shell_tool_help_description(&command_name, &server_name, &config.tools);
            Ok(FfiHostTransformPlan {
                help_tool_name,
                help_description,
                output_dir: Some(output_dir.clone()),
                files,
                paths,
                environment: path_environment(&output_dir),
                just_bash: None,
            })
        }
        FfiHostTransformKind::Python | FfiHostTransformKind::TypeScript => {
            let output_dir = config.output_dir.unwrap_or_else(|| PathBuf::from("./dist"));
            let artifact_kind = match config.kind {
                FfiHostTransformKind::Python => FfiClientArtifactKind::Python,
                FfiHostTransformKind::TypeScript => FfiClientArtifactKind::TypeScript,
                _ => unreachable!(),
            };
            let generator_config = generator_config(
                &server_name,
                &output_dir,
                config.tools.clone(),
                config.bridge_url,
                config.token,
                config.session_pid,
            );
            let artifacts = match artifact_kind {
                FfiClientArtifactKind::Python => PythonGenerator.render(&generator_config)?,
                FfiClientArtifactKind::TypeScript => {
                    TypeScriptGenerator.render(&generator_config)?
                }
                FfiClientArtifactKind::Cli => unreachable!(),
            };
            let files = artifact_map(&artifacts);
            let paths = artifact_paths(&artifacts, &output_dir);
            let help_description =
                code_help_description(artifact_kind, &server_name, &output_dir, &config.tools);
            let environment = match config.kind {
                FfiHostTransformKind::Python => {
                    let mut env = BTreeMap::new();
                    env.insert(
                        "PYTHONPATH".to_string(),
                        output_dir.to_string_lossy().into_owned(),
                    );
                    env
                }
                _ => BTreeMap::new(),
            };
            Ok(FfiHostTransformPlan {
                help_tool_name,
                help_description,
                output_dir: Some(output_dir),
                files,
                paths,
                environment,
                just_bash: None,
            })
        }
    }
}

pub fn normalize_host_tool_result(value: Value, toonify: bool) -> String {
    let output = value_to_string(&value);
    if toonify {
        crate::ffi::client_gen::maybe_toonify_output(&output)
    } else {
        output
    }
}

fn generator_config(
    server_name: &str,
    output_dir: &std::path::Path,
    tools: Vec<FfiTool>,
    bridge_url: Option<String>,
    token: Option<String>,
    session_pid: Option<u32>,
) -> GeneratorConfig {
    FfiGeneratorConfig {
        cli_name: server_name.to_string(),
        bridge_url: bridge_url.unwrap_or_else(|| "http://127.0.0.1:0".to_string()),
        token: token.unwrap_or_default(),
        tools,
        session_pid: session_pid.unwrap_or_else(std::process::id),
        output_dir: output_dir.to_path_buf(),
    }
    .into()
}

fn artifact_paths(artifacts: &[GeneratedArtifact], output_dir: &std::path::Path) -> Vec<PathBuf> {
    artifacts
        .iter()
        .map(|artifact| output_dir.join(&artifact.file_name))
        .collect()
}

fn shell_tool_help_description(command: &str, cli_name: &str, tools: &[FfiTool]) -> String {
    let tools = ffi_tools_to_engine(tools);
    crate::cli::help::render_top_level_help(
        command,
        cli_name,
        &tools,
        &crate::cli::help::HelpFraming::help_tool(command, cli_name),
    )
}

/// Convert FFI tool DTOs into the engine `Tool` type used by the shared help
/// renderer.
fn ffi_tools_to_engine(tools: &[FfiTool]) -> Vec<crate::compression::engine::Tool> {
    tools.iter().cloned().map(Into::into).collect()
}

fn code_help_description(
    kind: FfiClientArtifactKind,
    server_name: &str,
    output_dir: &std::path::Path,
    tools: &[FfiTool],
) -> String {
    let (language, language_lower, module_name) = match kind {
        FfiClientArtifactKind::Python => ("Python", "python", format!("{server_name}.py")),
        FfiClientArtifactKind::TypeScript => {
            ("TypeScript", "typescript", format!("{server_name}.ts"))
        }
        FfiClientArtifactKind::Cli => unreachable!(),
    };
    let source_path = output_dir.join(&module_name).to_string_lossy().into_owned();
    let mut lines = vec![
        format!(
            "Functionality associated with the {server_name} toolset is provided via a {language} module. Do not call this tool - import and use the {language_lower} functionality instead."
        ),
        format!("{server_name} - the {server_name} toolset"),
        String::new(),
        format!("{language} source code is available in {source_path}"),
        String::new(),
        "Available functions:".to_string(),
    ];
    let signatures = tools
        .iter()
        .map(|tool| code_function_signature(kind, tool))
        .collect::<Vec<_>>();
    let max_signature_len = signatures.iter().map(String::len).max().unwrap_or(0);
    for (tool, signature) in tools.iter().zip(signatures) {
        let description = crate::cli::help::short_tool_description(tool.description.as_deref());
        lines.push(
            format!(
                "  {signature:<width$}{description}",
                width = max_signature_len + 2
            )
            .trim_end()
            .to_string(),
        );
    }
    lines.push(String::new());
    match kind {
        FfiClientArtifactKind::Python => lines.extend([
            "For details on a specific function, run:".to_string(),
            "```python".to_string(),
            format!("from {server_name} import <function>"),
            "print(help(<function>))".to_string(),
            "```".to_string(),
        ]),
        FfiClientArtifactKind::TypeScript => lines.extend([
            "For details on a specific function, inspect the TypeScript declarations or editor hover documentation.".to_string(),
            format!(
                "Primary declarations: {}",
                output_dir.join(format!("{server_name}.d.ts")).to_string_lossy()
            ),
        ]),
        FfiClientArtifactKind::Cli => unreachable!(),
    }
    lines.join("\n")
}

fn code_function_signature(kind: FfiClientArtifactKind, tool: &FfiTool) -> String {
    let name = match kind {
        FfiClientArtifactKind::Python => to_snake_case(&tool.name),
        FfiClientArtifactKind::TypeScript => snake_to_camel(&tool.name),
        FfiClientArtifactKind::Cli => unreachable!(),
    };
    let properties = tool
        .input_schema
        .get("properties")
        .and_then(Value::as_object);
    let Some(properties) = properties else {
        return format!("{name}()");
    };
    let required = tool
        .input_schema
        .get("required")
        .and_then(Value::as_array)
        .map(|values| {
            values
                .iter()
                .filter_map(Value::as_str)
                .collect::<std::collections::BTreeSet<_>>()
        })
        .unwrap_or_default();
    let mut args = Vec::new();
    for key in properties.keys() {
        let function_arg = match kind {
            FfiClientArtifactKind::Python => to_snake_case(key),
            FfiClientArtifactKind::TypeScript => key.to_string(),
            FfiClientArtifactKind::Cli => unreachable!(),
        };
        if required.contains(key.as_str()) {
            args.push(function_arg);
        } else if kind == FfiClientArtifactKind::Python {
            args.push(format!("{function_arg}=None"));
        } else {
            args.push(format!("{function_arg}?"));
        }
    }
    format!("{name}({})", args.join(", "))
}

fn cli_subcommand_name(tool_name: &str) -> String {
    crate::cli::mapping::tool_name_to_subcommand(tool_name)
}

fn to_snake_case(name: &str) -> String {
    let mut output = String::new();
    let mut previous_was_separator = false;
    for (index, ch) in name.chars().enumerate() {
        if ch == '-' || ch == ' ' {
            if !output.is_empty() && !previous_was_separator {
                output.push('_');
            }
            previous_was_separator = true;
        } else if ch.is_ascii_uppercase() {
            if index > 0 && !previous_was_separator {
                output.push('_');
            }
            output.push(ch.to_ascii_lowercase());
            previous_was_separator = false;
        } else {
            output.push(ch);
            previous_was_separator = ch == '_';
        }
    }
    output
}

fn snake_to_camel(name: &str) -> String {
    let mut out = String::new();
    let mut uppercase_next = false;
    for ch in name.chars() {
        if ch == '_' || ch == '-' {
            uppercase_next = true;
        } else if uppercase_next {
            out.extend(ch.to_uppercase());
            uppercase_next = false;
        } else {
            out.push(ch);
        }
    }
    out
}

fn normalize_server_name(name: Option<String>) -> String {
    name.unwrap_or_else(|| "mcp".to_string())
}

fn default_cli_output_dir() -> PathBuf {
    PathBuf::from("./dist")
}

fn path_environment(output_dir: &std::path::Path) -> BTreeMap<String, String> {
    let dir = output_dir.to_string_lossy();
    // Windows uses `;` as the PATH separator and `%PATH%` to reference it; every
    // other platform uses `:` and `$PATH`.
    let path_value = if cfg!(windows) {
        format!("{dir};%PATH%")
    } else {
        format!("{dir}:$PATH")
    };
    let mut env = BTreeMap::new();
    env.insert("PATH".to_string(), path_value);
    env
}

fn value_to_string(value: &Value) -> String {
    if let Some(value) = value.as_str() {
        return value.to_string();
    }
    if let Some(map) = value.as_object() {
        if map.len() == 1 && map.contains_key("result") {
            return value_to_string(&map["result"]);
        }
        if let Some(text) = mcp_text_content_to_string(map.get("content")) {
            return text;
        }
    }
    value.to_string()
}

fn mcp_text_content_to_string(content: Option<&Value>) -> Option<String> {
    let content = content?.as_array()?;
    let parts = content
        .iter()
        .filter_map(|item| {
            let object = item.as_object()?;
            if object.get("type")?.as_str()? == "text" {
                object.get("text")?.as_str().map(ToOwned::to_owned)
            } else {
                None
            }
        })
        .collect::<Vec<_>>();
    (!parts.is_empty()).then(|| parts.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tool(name: &str, description: &str) -> FfiTool {
        FfiTool {
            name: name.to_string(),
            description: Some(description.to_string()),
            input_schema: json!({"type":"object","properties":{}}),
        }
    }

    #[test]
    fn cli_plan_contains_subcommand_help() {
        let plan = build_host_transform_plan(FfiHostTransformConfig {
            kind: FfiHostTransformKind::Cli,
            server_name: "alpha".to_string(),
            tools: vec![tool("echo_message", "Echo a message.")],
            output_dir: Some(PathBuf::from("./target/tmp-host-plan-cli")),
            command_name: Some("alpha".to_string()),
            bridge_url: Some("http://127.0.0.1:1".to_string()),
            token: Some("token".to_string()),
            session_pid: Some(1),
        })
        .unwrap();
        assert_eq!(plan.help_tool_name, "alpha_help");
        assert!(plan.help_description.contains(
            "Functionality associated with the alpha toolset is provided via the `alpha` CLI."
        ));
        assert!(plan
            .help_description
            .contains("  echo-message  Echo a message."));
    }

    #[test]
    fn help_summaries_use_first_sentence_and_trim_whitespace() {
        let plan = build_host_transform_plan(FfiHostTransformConfig {
            kind: FfiHostTransformKind::Cli,
            server_name: "alpha".to_string(),
            tools: vec![tool(
                "verbose",
                "  Get details for an item. This second sentence contains implementation guidance that should not appear.

More details follow.",
            )],
            output_dir: Some(PathBuf::from("./target/tmp-host-plan-summary-cli")),
            command_name: Some("alpha".to_string()),
            bridge_url: Some("http://127.0.0.1:1".to_string()),
            token: Some("token".to_string()),
            session_pid: Some(1),
        })
        .unwrap();

        assert!(plan
            .help_description
            .contains("  verbose  Get details for an item."));
        assert!(!plan.help_description.contains("implementation guidance"));
    }

    #[test]
    fn help_summaries_fall_back_to_first_line_for_tiny_first_sentence() {
        assert_eq!(
            crate::cli::help::short_tool_description(Some("OK. Use this tool to inspect status.")),
            "OK. Use this tool to inspect status."
        );
        assert_eq!(
            crate::cli::help::short_tool_description(Some(
                "A.
List accessible resources for the user."
            )),
            "A."
        );
    }

    #[test]
    fn help_summaries_truncate_cleanly() {
        let description = format!("{}.", "word ".repeat(80));
        let summary = crate::cli::help::short_tool_description(Some(&description));
        assert!(summary.len() <= 200);
        assert!(summary.ends_with("..."));
        assert!(!summary.ends_with(" ..."));
    }

    #[test]
    fn cli_plan_uses_kebab_case_for_camel_case_tool_names() {
        let plan = build_host_transform_plan(FfiHostTransformConfig {
            kind: FfiHostTransformKind::Cli,
            server_name: "atlassian".to_string(),
            tools: vec![
                tool("atlassianUserInfo", "Get current user info."),
                tool(
                    "getAccessibleAtlassianResources",
                    "Get accessible resources.",
                ),
            ],
            output_dir: Some(PathBuf::from("./target/tmp-host-plan-camel-cli")),
            command_name: Some("atlassian".to_string()),
            bridge_url: Some("http://127.0.0.1:1".to_string()),
            token: Some("token".to_string()),
            session_pid: Some(1),
        })
        .unwrap();
        assert!(plan.help_description.contains("  atlassian-user-info"));
        assert!(plan
            .help_description
            .contains("  get-accessible-atlassian-resources"));
        assert!(!plan.help_description.contains("atlassianUserInfo"));
        assert!(!plan
            .help_description
            .contains("getAccessibleAtlassianResources"));
    }

    #[test]
    fn host_cli_plan_defaults_to_dist_and_does_not_write_files() {
        let temp = tempfile::tempdir().unwrap();
        let previous_cwd = std::env::current_dir().unwrap();
        std::env::set_current_dir(temp.path()).unwrap();
        let plan = build_host_transform_plan(FfiHostTransformConfig {
            kind: FfiHostTransformKind::Cli,
            server_name: "alpha".to_string(),
            tools: vec![tool("echo", "Echo a message.")],
            output_dir: None,
            command_name: Some("alpha".to_string()),
            bridge_url: Some("http://127.0.0.1:1".to_string()),
            token: Some("token".to_string()),
            session_pid: Some(1),
        })
        .unwrap();
        std::env::set_current_dir(previous_cwd).unwrap();

        assert_eq!(plan.output_dir, Some(PathBuf::from("./dist")));
        // On Windows there are two artifacts (the shell script plus the `.cmd`)
        // and PATH uses `;`/`%PATH%`; elsewhere there is one, using `:`/`$PATH`.
        #[cfg(windows)]
        {
            assert_eq!(
                plan.paths,
                vec![
                    PathBuf::from("./dist/alpha"),
                    PathBuf::from("./dist/alpha.cmd"),
                ]
            );
            assert_eq!(
                plan.environment.get("PATH"),
                Some(&"./dist;%PATH%".to_string())
            );
        }
        #[cfg(not(windows))]
        {
            assert_eq!(plan.paths, vec![PathBuf::from("./dist/alpha")]);
            assert_eq!(
                plan.environment.get("PATH"),
                Some(&"./dist:$PATH".to_string())
            );
        }
        assert!(plan.files.contains_key("alpha"));
        assert!(!temp.path().join("dist/alpha").exists());
    }

    #[test]
    fn host_python_plan_returns_artifacts_without_writing_files() {
        let output_dir = tempfile::tempdir().unwrap().path().join("python-out");
        let plan = build_host_transform_plan(FfiHostTransformConfig {
            kind: FfiHostTransformKind::Python,
            server_name: "alpha".to_string(),
            tools: vec![tool("echo", "Echo a message.")],
            output_dir: Some(output_dir.clone()),
            command_name: None,
            bridge_url: Some("http://127.0.0.1:1".to_string()),
            token: Some("token".to_string()),
            session_pid: Some(1),
        })
        .unwrap();

        assert!(plan.files.contains_key("alpha.py"));
        assert!(plan.paths.contains(&output_dir.join("alpha.py")));
        assert!(!output_dir.join("alpha.py").exists());
    }

    #[test]
    fn normalizes_mcp_text_content_results() {
        let value = json!({"content":[{"type":"text","text":"{\"ok\":true}"}]});
        assert_eq!(normalize_host_tool_result(value, false), "{\"ok\":true}");
    }

    #[test]
    fn shrinks_host_objects_with_sibling_truncation_without_wrapping() {
        let original =
            json!({"data":{"description":"detail ".repeat(2000)},"nextPageToken":"opaque"});
        let preview = shrink_host_output(&original.to_string(), 4000, "Recover response abc")
            .unwrap()
            .unwrap();
        let parsed: Value = serde_json::from_str(&preview).unwrap();
        assert!(preview.chars().count() <= 4000);
        assert!(parsed["data"].is_object());
        assert_eq!(parsed["nextPageToken"], "opaque");
        assert_eq!(parsed["truncation"]["message"], "Recover response abc");
        assert_eq!(parsed["truncation"]["report"]["fits"], true);
        assert!(parsed.get("content").is_none());
        assert!(parsed.get("_meta").is_none());
    }

    #[test]
    fn shrinks_host_fallbacks_as_single_json_documents_with_recovery_metadata() {
        let array = json!((0..100)
            .map(|id| json!({"id":id,"text":"detail ".repeat(100)}))
            .collect::<Vec<_>>());
        let scalar = json!("long string ".repeat(2000));
        let collision =
            json!({"truncation":{"upstream":true},"description":"detail ".repeat(2000)});
        for original in [array, scalar, collision] {
            let preview = shrink_host_output(&original.to_string(), 4000, "Recover response abc")
                .unwrap()
                .unwrap();
            let parsed: Value = serde_json::from_str(&preview).unwrap();
            assert!(preview.chars().count() <= 4000);
            assert_eq!(
                parsed["_meta"]["truncation"]["message"],
                "Recover response abc"
            );
            let content = parsed["content"].as_array().unwrap();
            assert_eq!(content.len(), 2);
            let payload: Value =
                serde_json::from_str(content[0]["text"].as_str().unwrap()).unwrap();
            assert_eq!(payload.is_array(), original.is_array());
            assert_eq!(payload.is_string(), original.is_string());
            if original.is_object() {
                assert_eq!(payload["truncation"], original["truncation"]);
            }
            let notice: Value = serde_json::from_str(content[1]["text"].as_str().unwrap()).unwrap();
            assert_eq!(notice["truncation"], parsed["_meta"]["truncation"]);
        }
    }

    /// The napi path shares the core conversion, so CSV must toonify here too.
    #[test]
    fn toonifies_csv_text_content_results() {
        let value = json!({"content":[{"type":"text","text":"id,name\n1,alpha\n"}]});
        assert_eq!(
            normalize_host_tool_result(value, true),
            "[1]{id,name}:\n  1,alpha"
        );
    }
}

/// Condense normalized host output without writing files. The host owns the recovery
/// cache and supplies instructions pointing to an actual available recovery tool.
pub fn shrink_host_output(
    output: &str,
    max_chars: usize,
    recovery_message: &str,
) -> Result<Option<String>, Error> {
    if max_chars == 0 {
        return Err(Error::Config("shrinkfit must be a positive integer".into()));
    }
    let result =
        rmcp::model::CallToolResult::success(vec![rmcp::model::ContentBlock::text(output)]);
    crate::server::output_shrinking::shrink_result_with_recovery(
        &result,
        output,
        max_chars,
        None,
        Some(recovery_message),
    )?
    .map(|result| crate::server::output_shrinking::string_output(&result))
    .transpose()
}
