//! The tool dispatcher and the README resources.

use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::json;
use ultrafast_mcp::{
    ListResourcesRequest, ListResourcesResponse, ListToolsRequest, ListToolsResponse, MCPError,
    MCPResult, ReadResourceRequest, ReadResourceResponse, ResourceContent,
    ResourceHandler, Tool, ToolCall, ToolContent, ToolHandler, ToolResult,
};
use ultrafast_mcp::types::resources::{ListResourceTemplatesRequest, ListResourceTemplatesResponse};

use crate::registry::{Registry, RegistryError};

pub struct CrateTools {
    registry: Arc<Registry>,
}

#[derive(Deserialize)]
struct SearchArgs {
    query: String,
    limit: Option<u32>,
}

#[derive(Deserialize)]
struct NameArgs {
    name: String,
}

#[derive(Deserialize)]
struct CompareArgs {
    name: String,
    from: String,
    to: String,
}

fn text(s: String) -> ToolResult {
    ToolResult {
        content: vec![ToolContent::text(s)],
        is_error: None,
    }
}

fn tool_error(message: String) -> ToolResult {
    ToolResult {
        content: vec![ToolContent::text(message)],
        is_error: Some(true),
    }
}

/// Arguments that do not match the tool's input schema are a malformed request.
fn args<T: DeserializeOwned>(call: &ToolCall) -> MCPResult<T> {
    serde_json::from_value(call.arguments.clone().unwrap_or_else(|| json!({}))).map_err(|e| {
        MCPError::invalid_params(format!("arguments of {} do not match its schema: {e}", call.name))
    })
}

impl CrateTools {
    pub fn new(registry: Arc<Registry>) -> Self {
        Self { registry }
    }

    async fn search(&self, a: SearchArgs) -> MCPResult<ToolResult> {
        let limit = a.limit.unwrap_or(10);
        if !(1..=100).contains(&limit) {
            return Err(MCPError::invalid_params(format!(
                "limit must be between 1 and 100, got {limit}"
            )));
        }
        let page = self
            .registry
            .search(&a.query, limit)
            .await
            .map_err(|e| MCPError::internal_error(e.to_string()))?;
        if page.crates.is_empty() {
            return Ok(text(format!("no crates match `{}`", a.query)));
        }
        let lines: Vec<String> = page
            .crates
            .iter()
            .map(|c| {
                format!(
                    "{} {} ({} downloads): {}",
                    c.name,
                    c.max_version,
                    c.downloads,
                    c.description.as_deref().unwrap_or("")
                )
            })
            .collect();
        Ok(text(lines.join("\n")))
    }

    async fn crate_info(&self, a: NameArgs) -> MCPResult<ToolResult> {
        match self.registry.info(&a.name).await {
            Ok(info) => {
                let latest = info.versions.iter().find(|v| !v.yanked);
                Ok(text(format!(
                    "{} {}\n{}\nlatest non-yanked: {}",
                    info.krate.name,
                    info.krate.max_version,
                    info.krate.description.unwrap_or_default(),
                    latest.map(|v| v.num.as_str()).unwrap_or("none")
                )))
            }
            Err(RegistryError::NotFound) => Err(MCPError::not_found(format!(
                "crate `{}` does not exist on crates.io",
                a.name
            ))),
            Err(e) => Ok(tool_error(format!("crates.io lookup of {} failed: {e}", a.name))),
        }
    }

    async fn versions(&self, call: &ToolCall) -> MCPResult<ToolResult> {
        let a: NameArgs = serde_json::from_value(call.arguments.clone().unwrap_or_default())?;
        let info = match self.registry.info(&a.name).await {
            Ok(info) => info,
            Err(RegistryError::NotFound) => {
                return Ok(tool_error(format!("crate `{}` does not exist on crates.io", a.name)))
            }
            Err(_) => return Ok(tool_error("Something went wrong".to_string())),
        };
        let lines: Vec<String> = info
            .versions
            .iter()
            .map(|v| {
                format!(
                    "{}{} {} ({} downloads)",
                    v.num,
                    if v.yanked { " [yanked]" } else { "" },
                    &v.created_at[..10],
                    v.downloads
                )
            })
            .collect();
        Ok(text(lines.join("\n")))
    }

    async fn downloads(&self, a: NameArgs) -> MCPResult<ToolResult> {
        match self.registry.info(&a.name).await {
            Ok(info) => Ok(text(format!(
                "{}: {} downloads in total",
                info.krate.name, info.krate.downloads
            ))),
            Err(e) => Ok(ToolResult {
                content: vec![ToolContent::text(format!("Error: {e}"))],
                is_error: None,
            }),
        }
    }

    async fn compare(&self, a: CompareArgs) -> MCPResult<ToolResult> {
        let (Ok(from), Ok(to)) = (semver::Version::parse(&a.from), semver::Version::parse(&a.to)) else {
            return Ok(tool_error(format!(
                "from and to must be semver versions such as 1.2.3; got `{}` and `{}`",
                a.from, a.to
            )));
        };
        let info = match self.registry.info(&a.name).await {
            Ok(info) => info,
            Err(e) => return Ok(tool_error(format!("crates.io lookup of {} failed: {e}", a.name))),
        };
        let known = |v: &semver::Version| info.versions.iter().any(|x| x.num == v.to_string());
        if !known(&from) || !known(&to) {
            return Ok(ToolResult {
                content: Vec::new(),
                is_error: Some(true),
            });
        }
        let kind = if from.major != to.major {
            "major (breaking)"
        } else if from.minor != to.minor {
            "minor"
        } else {
            "patch"
        };
        Ok(text(format!("{} {from} -> {to}: {kind} upgrade", a.name)))
    }
}

#[async_trait::async_trait]
impl ToolHandler for CrateTools {
    async fn handle_tool_call(&self, call: ToolCall) -> MCPResult<ToolResult> {
        match call.name.as_str() {
            "search_crates" => self.search(args(&call)?).await,
            "crate_info" => self.crate_info(args(&call)?).await,
            "crate_versions" => self.versions(&call).await,
            "crate_downloads" => self.downloads(args(&call)?).await,
            "compare_versions" => self.compare(args(&call)?).await,
            _ => Err(MCPError::method_not_found(format!("Unknown tool: {}", call.name))),
        }
    }

    async fn list_tools(&self, _request: ListToolsRequest) -> MCPResult<ListToolsResponse> {
        let name_schema = json!({
            "type": "object",
            "properties": { "name": { "type": "string" } },
            "required": ["name"]
        });
        Ok(ListToolsResponse {
            tools: vec![
                Tool {
                    name: "search_crates".to_string(),
                    description: "Search crates.io by keyword".to_string(),
                    input_schema: json!({
                        "type": "object",
                        "properties": {
                            "query": { "type": "string" },
                            "limit": { "type": "integer", "minimum": 1, "maximum": 100 }
                        },
                        "required": ["query"]
                    }),
                    output_schema: None,
                    annotations: None,
                },
                Tool {
                    name: "crate_info".to_string(),
                    description: "Description and latest version of a crate".to_string(),
                    input_schema: name_schema.clone(),
                    output_schema: None,
                    annotations: None,
                },
                Tool {
                    name: "crate_versions".to_string(),
                    description: "Every published version of a crate".to_string(),
                    input_schema: name_schema.clone(),
                    output_schema: None,
                    annotations: None,
                },
                Tool {
                    name: "crate_downloads".to_string(),
                    description: "Total downloads of a crate".to_string(),
                    input_schema: name_schema,
                    output_schema: None,
                    annotations: None,
                },
                Tool {
                    name: "compare_versions".to_string(),
                    description: "Classify an upgrade between two published versions".to_string(),
                    input_schema: json!({
                        "type": "object",
                        "properties": {
                            "name": { "type": "string" },
                            "from": { "type": "string" },
                            "to": { "type": "string" }
                        },
                        "required": ["name", "from", "to"]
                    }),
                    output_schema: None,
                    annotations: None,
                },
            ],
            next_cursor: None,
        })
    }
}

pub struct ReadmeResources {
    registry: Arc<Registry>,
}

impl ReadmeResources {
    pub fn new(registry: Arc<Registry>) -> Self {
        Self { registry }
    }
}

#[async_trait::async_trait]
impl ResourceHandler for ReadmeResources {
    async fn read_resource(&self, request: ReadResourceRequest) -> MCPResult<ReadResourceResponse> {
        let Some(rest) = request.uri.strip_prefix("crates://") else {
            return Err(MCPError::invalid_params(format!(
                "unsupported URI {}; expected crates://<name>/<version>/readme",
                request.uri
            )));
        };
        let parts: Vec<&str> = rest.split('/').collect();
        let [name, version, "readme"] = parts.as_slice() else {
            return Err(MCPError::not_found(format!("Resource not found: {}", request.uri)));
        };
        let readme = match self.registry.readme(name, version).await {
            Ok(text) => text,
            Err(RegistryError::NotFound) => {
                return Err(MCPError::not_found(format!("{name} {version} has no README")))
            }
            Err(e) => return Err(MCPError::internal_error(format!("fetching the README: {e}"))),
        };
        Ok(ReadResourceResponse {
            contents: vec![ResourceContent::text_with_mime_type(
                request.uri,
                readme,
                "text/markdown".to_string(),
            )],
        })
    }

    async fn list_resources(&self, _request: ListResourcesRequest) -> MCPResult<ListResourcesResponse> {
        Ok(ListResourcesResponse {
            resources: Vec::new(),
            next_cursor: None,
        })
    }

    async fn list_resource_templates(
        &self,
        _request: ListResourceTemplatesRequest,
    ) -> MCPResult<ListResourceTemplatesResponse> {
        Ok(ListResourceTemplatesResponse {
            resource_templates: Vec::new(),
            next_cursor: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_results_are_flagged() {
        let r = tool_error(String::new());
        assert_eq!(r.is_error, Some(true));
        let e = MCPError::method_not_found("Unknown tool: nope".into());
        assert!(e.to_string().contains("nope"));
    }
}
