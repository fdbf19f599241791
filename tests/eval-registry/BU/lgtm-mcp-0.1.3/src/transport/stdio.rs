use crate::tools::{ToolRegistry, ToolError};
use serde::{Deserialize, Serialize};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tracing::{error, info};

#[derive(Debug, Deserialize)]
struct JsonRpcRequest {
    jsonrpc: String,
    id: Option<serde_json::Value>,
    method: String,
    params: Option<serde_json::Value>,
}

#[derive(Debug, Serialize)]
struct JsonRpcResponse {
    jsonrpc: &'static str,
    id: Option<serde_json::Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    result: Option<serde_json::Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<JsonRpcError>,
}

#[derive(Debug, Serialize)]
struct JsonRpcError {
    code: i32,
    message: String,
}

#[derive(Debug, Serialize)]
struct ServerInfo {
    name: &'static str,
    version: &'static str,
}

#[derive(Debug, Serialize)]
struct InitializeResult {
    #[serde(rename = "protocolVersion")]
    protocol_version: &'static str,
    capabilities: Capabilities,
    #[serde(rename = "serverInfo")]
    server_info: ServerInfo,
}

#[derive(Debug, Serialize)]
struct Capabilities {
    tools: ToolsCapability,
}

#[derive(Debug, Serialize)]
struct ToolsCapability {
    #[serde(rename = "listChanged")]
    list_changed: bool,
}

#[derive(Debug, Serialize)]
struct ToolsListResult {
    tools: Vec<ToolDefinition>,
}

#[derive(Debug, Serialize)]
struct ToolDefinition {
    name: &'static str,
    description: &'static str,
    #[serde(rename = "inputSchema")]
    input_schema: serde_json::Value,
}

#[derive(Debug, Serialize)]
struct CallToolResult {
    content: Vec<ContentItem>,
    #[serde(rename = "isError")]
    is_error: bool,
}

#[derive(Debug, Serialize)]
struct ContentItem {
    #[serde(rename = "type")]
    content_type: &'static str,
    text: String,
}

pub async fn run(registry: ToolRegistry) -> anyhow::Result<()> {
    let stdin = tokio::io::stdin();
    let mut stdout = tokio::io::stdout();
    let mut reader = BufReader::new(stdin);
    let mut line = String::new();

    info!("MCP server started, listening on stdio");

    loop {
        line.clear();
        let n = reader.read_line(&mut line).await?;
        if n == 0 {
            break;
        }

        let trimmed = line.trim();
        if trimmed.is_empty() {
            continue;
        }

        let response = match serde_json::from_str::<JsonRpcRequest>(trimmed) {
            Ok(req) => {
                if req.jsonrpc != "2.0" {
                    make_error(req.id, -32600, "Invalid Request: jsonrpc must be 2.0")
                } else {
                    handle_request(&registry, req).await
                }
            }
            Err(e) => make_error(None, -32700, &format!("Parse error: {e}")),
        };

        let mut bytes = serde_json::to_vec(&response)?;
        bytes.push(b'\n');
        stdout.write_all(&bytes).await?;
        stdout.flush().await?;
    }

    Ok(())
}

async fn handle_request(registry: &ToolRegistry, req: JsonRpcRequest) -> JsonRpcResponse {
    match req.method.as_str() {
        "initialize" => {
            let result = InitializeResult {
                protocol_version: "2024-11-05",
                capabilities: Capabilities {
                    tools: ToolsCapability { list_changed: false },
                },
                server_info: ServerInfo {
                    name: "mcp-grafana",
                    version: env!("CARGO_PKG_VERSION"),
                },
            };
            make_result(req.id, serde_json::to_value(result).unwrap())
        }
        "notifications/initialized" => {
            JsonRpcResponse {
                jsonrpc: "2.0",
                id: req.id,
                result: None,
                error: None,
            }
        }
        "tools/list" => {
            let tools = registry.list_tools();
            let defs: Vec<ToolDefinition> = tools
                .into_iter()
                .map(|(name, description, schema)| ToolDefinition {
                    name,
                    description,
                    input_schema: schema,
                })
                .collect();
            make_result(req.id, serde_json::to_value(ToolsListResult { tools: defs }).unwrap())
        }
        "tools/call" => {
            let params = match req.params {
                Some(p) => p,
                None => return make_error(req.id, -32602, "Missing params"),
            };
            let tool_name = match params.get("name").and_then(|v| v.as_str()) {
                Some(n) => n.to_owned(),
                None => return make_error(req.id, -32602, "Missing tool name"),
            };
            let arguments = params
                .get("arguments")
                .cloned()
                .unwrap_or(serde_json::Value::Object(serde_json::Map::new()));

            match registry.call_tool(&tool_name, arguments).await {
                Ok(text) => {
                    let result = CallToolResult {
                        content: vec![ContentItem {
                            content_type: "text",
                            text,
                        }],
                        is_error: false,
                    };
                    make_result(req.id, serde_json::to_value(result).unwrap())
                }
                Err(ToolError::UnknownTool(name)) => {
                    make_error(req.id, -32601, &format!("Unknown tool: {name}"))
                }
                Err(ToolError::InvalidArguments(msg)) => {
                    make_error(req.id, -32602, &format!("Invalid arguments: {msg}"))
                }
                Err(ToolError::Backend(msg)) => {
                    let result = CallToolResult {
                        content: vec![ContentItem {
                            content_type: "text",
                            text: format!("Backend error: {msg}"),
                        }],
                        is_error: true,
                    };
                    make_result(req.id, serde_json::to_value(result).unwrap())
                }
                Err(ToolError::Domain(msg)) => {
                    let result = CallToolResult {
                        content: vec![ContentItem {
                            content_type: "text",
                            text: format!("Domain error: {msg}"),
                        }],
                        is_error: true,
                    };
                    make_result(req.id, serde_json::to_value(result).unwrap())
                }
            }
        }
        "ping" => make_result(req.id, serde_json::json!({})),
        other => {
            error!("Unknown method: {other}");
            make_error(req.id, -32601, &format!("Method not found: {other}"))
        }
    }
}

fn make_result(id: Option<serde_json::Value>, result: serde_json::Value) -> JsonRpcResponse {
    JsonRpcResponse {
        jsonrpc: "2.0",
        id,
        result: Some(result),
        error: None,
    }
}

fn make_error(id: Option<serde_json::Value>, code: i32, message: &str) -> JsonRpcResponse {
    JsonRpcResponse {
        jsonrpc: "2.0",
        id,
        result: None,
        error: Some(JsonRpcError {
            code,
            message: message.to_owned(),
        }),
    }
}
