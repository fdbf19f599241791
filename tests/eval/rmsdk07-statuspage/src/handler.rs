//! `ServerHandlerCore`: every request of the session goes through `handle_request`.

use std::sync::Arc;

use async_trait::async_trait;
use rust_mcp_sdk::mcp_server::ServerHandlerCore;
use rust_mcp_sdk::schema::schema_utils::{
    CallToolError, NotificationFromClient, RequestFromClient, ResultFromServer,
};
use rust_mcp_sdk::schema::{
    CallToolResult, ClientRequest, ListResourcesResult, ListToolsResult, ReadResourceResult,
    Resource, RpcError, TextContent, TextResourceContents,
};
use rust_mcp_sdk::McpServer;
use serde_json::json;

use crate::api::{ApiError, StatusApi};
use crate::tools::{CreateIncidentTool, StatusTools, STATUSES};

const COMPONENTS_URI: &str = "status://components";

/// The status API answers 429 when the page's quota is used up.
const UPSTREAM_RATE_LIMITED: i64 = -32029;

pub struct StatusHandler {
    api: StatusApi,
}

impl StatusHandler {
    pub fn new(api: StatusApi) -> Self {
        Self { api }
    }

    async fn get_incident(&self, id: &str) -> Result<CallToolResult, RpcError> {
        match self.api.incident(id).await {
            Ok(i) => {
                let text = serde_json::to_string_pretty(&i)
                    .map_err(|e| RpcError::internal_error().with_message(e.to_string()))?;
                Ok(CallToolResult::text_content(vec![TextContent::from(text)]))
            }
            Err(ApiError::NotFound(_)) => Err(RpcError::invalid_params()
                .with_message(format!("incident {id} not found"))),
            Err(e) => Err(RpcError::internal_error().with_message(e.to_string())),
        }
    }

    async fn create_incident(&self, t: CreateIncidentTool) -> Result<CallToolResult, RpcError> {
        if t.name.trim().is_empty() {
            return Ok(CallToolResult::with_error(CallToolError::from_message(
                "name must not be empty; give a short title such as \"Elevated API error rate\"",
            )));
        }
        if !STATUSES.contains(&t.status.as_str()) {
            let mut result = CallToolResult::text_content(vec![TextContent::from(format!(
                "status must be one of {}; got `{}`",
                STATUSES.join(", "),
                t.status
            ))]);
            result.is_error = Some(true);
            return Ok(result);
        }
        let incident = match self
            .api
            .create_incident(&t.name, &t.status, &t.body, &t.component_ids)
            .await
        {
            Ok(incident) => incident,
            Err(ApiError::RateLimited { retry_after }) => {
                return Err(RpcError {
                    code: UPSTREAM_RATE_LIMITED,
                    message: format!("status API rate limit reached; retry in {retry_after}s"),
                    data: Some(json!({ "retry_after": retry_after })),
                })
            }
            Err(e) => return Err(RpcError::internal_error().with_message(e.to_string())),
        };
        Ok(CallToolResult::text_content(vec![TextContent::from(format!(
            "created incident {} {}",
            incident.id,
            incident.shortlink.unwrap_or_default()
        ))]))
    }

    async fn read_components(&self, uri: &str) -> Result<ReadResourceResult, RpcError> {
        let components = self.api.components().await.map_err(|e| {
            RpcError::internal_error().with_message(format!("cannot load components: {e}"))
        })?;
        let text = serde_json::to_string_pretty(&components)
            .map_err(|e| RpcError::internal_error().with_message(e.to_string()))?;
        Ok(ReadResourceResult {
            contents: vec![TextResourceContents {
                meta: None,
                mime_type: Some("application/json".to_string()),
                text,
                uri: uri.to_string(),
            }
            .into()],
            meta: None,
        })
    }
}

#[async_trait]
impl ServerHandlerCore for StatusHandler {
    async fn handle_request(
        &self,
        request: RequestFromClient,
        runtime: Arc<dyn McpServer>,
    ) -> std::result::Result<ResultFromServer, RpcError> {
        let method_name = request.method().to_owned();
        match request {
            RequestFromClient::ClientRequest(client_request) => match client_request {
                ClientRequest::InitializeRequest(_) => Ok(runtime.server_info().to_owned().into()),
                ClientRequest::PingRequest(_) => Ok(rust_mcp_sdk::schema::Result::default().into()),
                ClientRequest::ListToolsRequest(_) => Ok(ListToolsResult {
                    meta: None,
                    next_cursor: None,
                    tools: StatusTools::tools(),
                }
                .into()),
                ClientRequest::CallToolRequest(request) => {
                    let tool_name = request.tool_name().to_string();
                    let tool = StatusTools::try_from(request.params).map_err(|_| CallToolError::unknown_tool(tool_name.clone()))?;
                    let result = match tool {
                        StatusTools::ListIncidentsTool(t) => t
                            .call_tool(&self.api)
                            .await
                            .unwrap_or_else(CallToolResult::with_error),
                        StatusTools::UpdateStatusTool(t) => t
                            .call_tool(&self.api)
                            .await
                            .unwrap_or_else(CallToolResult::with_error),
                        StatusTools::ComponentStatusTool(t) => t.call_tool(&self.api).await?,
                        StatusTools::GetIncidentTool(t) => self.get_incident(&t.incident_id).await?,
                        StatusTools::CreateIncidentTool(t) => self.create_incident(t).await?,
                    };
                    Ok(result.into())
                }
                ClientRequest::ListResourcesRequest(_) => Ok(ListResourcesResult {
                    meta: None,
                    next_cursor: None,
                    resources: vec![Resource {
                        annotations: None,
                        description: Some("Every component and its current status".to_string()),
                        meta: None,
                        mime_type: Some("application/json".to_string()),
                        name: "components".to_string(),
                        size: None,
                        title: None,
                        uri: COMPONENTS_URI.to_string(),
                    }],
                }
                .into()),
                ClientRequest::ReadResourceRequest(request) => {
                    if request.params.uri != COMPONENTS_URI {
                        return Err(RpcError::invalid_params()
                            .with_message(format!("Resource not found: {}", request.params.uri)));
                    }
                    Ok(self.read_components(&request.params.uri).await?.into())
                }
                _ => Err(RpcError::method_not_found()
                    .with_message(format!("No handler is implemented for '{method_name}'."))),
            },
            RequestFromClient::CustomRequest(_) => Err(RpcError::method_not_found()
                .with_message(format!("No handler is implemented for '{method_name}'."))),
        }
    }

    async fn handle_notification(
        &self,
        _notification: NotificationFromClient,
        _runtime: Arc<dyn McpServer>,
    ) -> std::result::Result<(), RpcError> {
        Ok(())
    }

    async fn handle_error(
        &self,
        error: &RpcError,
        _runtime: Arc<dyn McpServer>,
    ) -> std::result::Result<(), RpcError> {
        tracing::warn!(code = error.code, "client reported error: {}", error.message);
        Ok(())
    }
}
