use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;

use apollo_compiler::{Schema, validation::Valid};
use opentelemetry::KeyValue;
use opentelemetry::trace::FutureExt as _;
use reqwest::header::HeaderMap;
use rmcp::ErrorData;
#[cfg(test)]
use rmcp::model::CacheScope;
use rmcp::model::{
    CallToolResponse, ClientCapabilities, Extensions, GetPromptRequestParams, GetPromptResponse,
    GetPromptResult, Implementation, ListPromptsResult, ListResourceTemplatesResult,
    ListResourcesResult, PromptMessage, PromptsCapability, ReadResourceResponse,
    ReadResourceResult, ResourcesCapability, Role, SubscriptionFilter, Tool, ToolsCapability,
};
use rmcp::{
    RoleServer, ServerHandler,
    model::{
        CallToolRequestParams, CallToolResult, ContentBlock, ErrorCode, InitializeRequestParams,
        InitializeResult, ListToolsResult, PaginatedRequestParams, ProtocolVersion,
        ServerCapabilities, ServerConfig,
    },
    service::{NotificationContext, RequestContext, SubscriptionContext, SubscriptionSendError},
};
use serde_json::Value;
use tokio::sync::RwLock;
use tokio_util::sync::CancellationToken;
use tracing::{Instrument as _, debug, error, info};
use url::Url;

use crate::apps::app::AppTarget;
use crate::apps::app_param_from_query;
use crate::apps::resource::{attach_resource_mime_type, get_app_resource};
use crate::apps::tool::{attach_tool_metadata, find_and_execute_app_tool, make_tool_private};
use crate::generated::telemetry::{TelemetryAttribute, TelemetryMetric};
use crate::meter;
use crate::operations::{execute_operation, find_and_execute_operation, warn_unmatched_operations};
use crate::server::states::telemetry::{get_parent_span, with_request_context};
use crate::server_info::ServerInfoConfig;
use crate::{
    caching::Caching,
    custom_scalar_map::CustomScalarMap,
    errors::McpError,
    explorer::{EXPLORER_TOOL_NAME, Explorer},
    headers::{ForwardHeaders, build_request_headers},
    health::HealthCheck,
    introspection::tools::{
        execute::{EXECUTE_TOOL_NAME, Execute},
        introspect::{INTROSPECT_TOOL_NAME, Introspect},
        search::{SEARCH_TOOL_NAME, Search},
        validate::{VALIDATE_TOOL_NAME, Validate},
    },
    operations::{AnnotationOverrides, MutationMode, Operation, ParamHeaders, RawOperation},
};
use apollo_mcp_rhai::SharedRhaiEngine;

use super::tool_list_changes::{LegacyToolNotifications, ToolListChanges};

#[derive(Clone)]
pub(super) struct Running {
    pub(super) schema: Arc<RwLock<Valid<Schema>>>,
    pub(super) operations: Arc<RwLock<Vec<Operation>>>,
    pub(super) apps: Vec<crate::apps::App>,
    pub(super) prompts: Vec<crate::prompts::PromptFile>,
    pub(super) headers: HeaderMap,
    pub(super) forward_headers: ForwardHeaders,
    pub(super) endpoint: Url,
    pub(super) execute_tool: Option<Execute>,
    pub(super) introspect_tool: Option<Introspect>,
    pub(super) search_tool: Option<Search>,
    pub(super) explorer_tool: Option<Explorer>,
    pub(super) validate_tool: Option<Validate>,
    pub(super) custom_scalar_map: Option<CustomScalarMap>,
    pub(super) tool_list_changes: ToolListChanges,
    pub(super) cancellation_token: CancellationToken,
    pub(super) mutation_mode: MutationMode,
    pub(super) disable_type_description: bool,
    pub(super) disable_schema_description: bool,
    pub(super) enable_output_schema: bool,
    pub(super) disable_auth_token_passthrough: bool,
    pub(super) descriptions: HashMap<String, String>,
    pub(super) annotations: HashMap<String, AnnotationOverrides>,
    pub(super) param_headers: HashMap<String, ParamHeaders>,
    pub(super) health_check: Option<HealthCheck>,
    pub(super) server_info: ServerInfoConfig,
    /// MCP initialize-response instructions (optional).
    pub(super) instructions: Option<String>,
    pub(super) rhai_engine: SharedRhaiEngine,
    pub(super) caching: Caching,
    pub(super) tasks: Option<super::tasks::TaskRuntime>,
}

/// Client capabilities and negotiated protocol version derived from the peer's `initialize`
/// info, bundled so handlers that need both (app-target resolution, output-schema stripping,
/// cache hints) take one argument instead of two.
#[derive(Debug, Clone, Copy, Default)]
struct PeerContext<'a> {
    client_capabilities: Option<&'a ClientCapabilities>,
    protocol_version: Option<&'a ProtocolVersion>,
}

#[cfg(test)]
impl<'a> PeerContext<'a> {
    fn with_client_capabilities(client_capabilities: &'a ClientCapabilities) -> Self {
        Self {
            client_capabilities: Some(client_capabilities),
            protocol_version: None,
        }
    }

    fn with_protocol_version(protocol_version: &'a ProtocolVersion) -> Self {
        Self {
            client_capabilities: None,
            protocol_version: Some(protocol_version),
        }
    }
}

impl Running {
    /// Whether `call_tool` routes `name` to an enabled built-in tool, which takes
    /// precedence over a predefined operation with the same name.
    fn is_builtin_tool(&self, name: &str) -> bool {
        match name {
            INTROSPECT_TOOL_NAME => self.introspect_tool.is_some(),
            SEARCH_TOOL_NAME => self.search_tool.is_some(),
            EXPLORER_TOOL_NAME => self.explorer_tool.is_some(),
            EXECUTE_TOOL_NAME => self.execute_tool.is_some(),
            VALIDATE_TOOL_NAME => self.validate_tool.is_some(),
            _ => false,
        }
    }

    /// Construct an independent rmcp service sharing this application's catalog.
    pub(super) fn for_service(&self) -> McpService {
        McpService {
            application: self.clone(),
            notifications: Default::default(),
        }
    }

    /// Returns true when `enable_output_schema` is active and the negotiated
    /// protocol version supports `outputSchema` / `structuredContent` (MCP 2025-06-18+).
    fn client_supports_output_schema(&self, protocol_version: Option<&ProtocolVersion>) -> bool {
        self.enable_output_schema
            && protocol_version.is_some_and(|v| *v >= ProtocolVersion::V_2025_06_18)
    }

    /// Rebuilds the current predefined operation catalog against a new schema.
    ///
    /// Only state behind shared locks changes, so active server clones observe the update.
    pub(super) async fn update_schema(&self, schema: Valid<Schema>) {
        debug!("Schema updated:\n{}", schema);

        // We hold this lock for the entire update process to make sure there are no race conditions with simultaneous updates
        let mut operations_lock = self.operations.write().await;

        // Update the operations based on the new schema. This is necessary because the MCP tool
        // input schemas and description are derived from the schema.
        let operations: Vec<Operation> = operations_lock
            .iter()
            .cloned()
            .map(|operation| operation.into_inner())
            .filter_map(|operation| {
                operation
                    .into_operation(
                        &schema,
                        self.custom_scalar_map.as_ref(),
                        self.mutation_mode,
                        self.disable_type_description,
                        self.disable_schema_description,
                        self.enable_output_schema,
                        &self.annotations,
                        &self.descriptions,
                        &self.param_headers,
                    )
                    .unwrap_or_else(|error| {
                        error!("Invalid operation: {}", error);
                        None
                    })
            })
            .collect();

        debug!(
            "Updated {} operations:\n{}",
            operations.len(),
            serde_json::to_string_pretty(&operations).unwrap_or_default()
        );
        // Update the schema itself
        *self.schema.write().await = schema;

        warn_unmatched_operations(&self.param_headers, &operations);
        *operations_lock = operations;

        // Publish only after the updated catalog is visible to readers.
        drop(operations_lock);

        // Notify MCP clients that tools have changed
        self.tool_list_changes.publish();
    }

    /// Replaces the current predefined operation catalog with the latest source update.
    ///
    /// Only state behind shared locks changes, so active server clones observe the update.
    #[tracing::instrument(skip_all)]
    pub(super) async fn update_operations(&self, operations: Vec<RawOperation>) {
        debug!("Operations updated:\n{:?}", operations);

        // We hold this lock for the entire update process to make sure there are no race conditions with simultaneous updates
        let mut operations_lock = self.operations.write().await;

        // Update the operations based on the current schema
        let updated_operations: Vec<Operation> = {
            let schema = &*self.schema.read().await;
            operations
                .into_iter()
                .filter_map(|operation| {
                    operation
                        .into_operation(
                            schema,
                            self.custom_scalar_map.as_ref(),
                            self.mutation_mode,
                            self.disable_type_description,
                            self.disable_schema_description,
                            self.enable_output_schema,
                            &self.annotations,
                            &self.descriptions,
                            &self.param_headers,
                        )
                        .unwrap_or_else(|error| {
                            error!("Invalid operation: {}", error);
                            None
                        })
                })
                .collect()
        };

        debug!(
            "Loaded {} operations:\n{}",
            updated_operations.len(),
            serde_json::to_string_pretty(&updated_operations).unwrap_or_default()
        );
        warn_unmatched_operations(&self.param_headers, &updated_operations);
        *operations_lock = updated_operations;

        // Publish only after the updated catalog is visible to readers.
        drop(operations_lock);

        // Notify MCP clients that tools have changed
        self.tool_list_changes.publish();
    }

    /// Reload Rhai scripts from the configured Rhai directory.
    /// On failure, logs the error and keeps the previous scripts.
    pub(super) fn reload_rhai_scripts(&self) {
        match self.rhai_engine.reload() {
            Ok(()) => {
                info!("Rhai scripts reloaded successfully");
            }
            Err(err) => {
                error!("Failed to reload Rhai scripts, keeping previous version: {err}");
            }
        }
    }

    async fn list_tools_impl(
        &self,
        extensions: Extensions,
        peer: PeerContext<'_>,
    ) -> Result<ListToolsResult, McpError> {
        self.list_tools_with_protocol_max(extensions, peer, &MAX_SUPPORTED_PROTOCOL_VERSION)
            .await
    }

    // Keep the production cap fixed at the entry point while allowing the shared
    // implementation to be tested against a future supported protocol revision.
    async fn list_tools_with_protocol_max(
        &self,
        extensions: Extensions,
        peer: PeerContext<'_>,
        server_max: &ProtocolVersion,
    ) -> Result<ListToolsResult, McpError> {
        let meter = &meter::METER;
        meter
            .u64_counter(TelemetryMetric::ListToolsCount.as_str())
            .build()
            .add(1, &[]);

        let app_param = extract_app_param(&extensions);
        let app_target = AppTarget::try_from((extensions, peer.client_capabilities))?;

        let mut operation_tools: Vec<_> = self
            .operations
            .read()
            .await
            .iter()
            .map(|op| op.as_ref().clone())
            .collect();
        // Stable ordering supports client tool-list caches and LLM prompt cache reuse.
        operation_tools.sort_by(|a, b| a.name.cmp(&b.name));

        // If we get the app param, we'll run in a special "app mode" where we only expose the tools for that app (+execute)
        let mut result = if let Some(app_name) = app_param {
            let app = self.apps.iter().find(|app| app.name == app_name);

            match app {
                Some(app) => ListToolsResult::with_all_items(
                    operation_tools
                        .into_iter()
                        .chain(
                            self.execute_tool
                                .as_ref()
                                .iter()
                                // When running apps, make the execute tool executable from the app but hidden from the LLM via meta entry on the tool. This prevents the LLM from using the execute tool by limiting it only to the app tools.
                                .map(|e| make_tool_private(e.tool.clone())),
                        )
                        .chain(
                            app.tools
                                .iter()
                                .map(|tool| attach_tool_metadata(app, tool, &app_target))
                                .collect::<Vec<_>>(),
                        )
                        .collect(),
                ),
                None => {
                    return Err(McpError::new(
                        ErrorCode::INVALID_REQUEST,
                        format!("App {app_name} not found"),
                        None,
                    ));
                }
            }
        } else {
            ListToolsResult::with_all_items(
                operation_tools
                    .into_iter()
                    .chain(self.execute_tool.as_ref().iter().map(|e| e.tool.clone()))
                    .chain(self.introspect_tool.as_ref().iter().map(|e| e.tool.clone()))
                    .chain(self.search_tool.as_ref().iter().map(|e| e.tool.clone()))
                    .chain(self.explorer_tool.as_ref().iter().map(|e| e.tool.clone()))
                    .chain(self.validate_tool.as_ref().iter().map(|e| e.tool.clone()))
                    .collect(),
            )
        };

        if !self.client_supports_output_schema(peer.protocol_version) {
            for tool in &mut result.tools {
                tool.output_schema = None;
            }
        }

        Ok(self
            .caching
            .apply_to(result, peer.protocol_version, server_max))
    }

    fn is_graphql_tool(
        &self,
        request: &CallToolRequestParams,
        extensions: &Extensions,
        operation: Option<&Operation>,
    ) -> bool {
        let name = request.name.as_ref();
        // Match call_tool_impl's utility precedence, even if an operation has
        // the same name as an enabled built-in tool.
        if (name == INTROSPECT_TOOL_NAME && self.introspect_tool.is_some())
            || (name == SEARCH_TOOL_NAME && self.search_tool.is_some())
            || (name == EXPLORER_TOOL_NAME && self.explorer_tool.is_some())
            || (name == VALIDATE_TOOL_NAME && self.validate_tool.is_some())
        {
            return false;
        }
        if name == EXECUTE_TOOL_NAME && self.execute_tool.is_some() {
            return true;
        }
        if let Some(app_name) = extract_app_param(extensions) {
            return self.apps.iter().any(|app| {
                app.name == app_name && app.tools.iter().any(|tool| tool.tool.name == name)
            });
        }
        operation.is_some()
    }

    async fn call_tool_impl(
        &self,
        request: CallToolRequestParams,
        extensions: &Extensions,
        protocol_version: Option<&ProtocolVersion>,
        operation: Option<Operation>,
    ) -> Result<CallToolResult, McpError> {
        let meter = &meter::METER;
        let start = std::time::Instant::now();
        let tool_name = request.name;
        let app_param = extract_app_param(extensions);
        let axum_parts = extensions.get::<axum::http::request::Parts>();

        let mut result = if tool_name == INTROSPECT_TOOL_NAME
            && let Some(introspect_tool) = &self.introspect_tool
        {
            match serde_json::from_value(Value::from(request.arguments)) {
                Ok(args) => introspect_tool.execute(args).await,
                Err(e) => Ok(CallToolResult::error(vec![ContentBlock::text(format!(
                    "Invalid input: {e}"
                ))])),
            }
        } else if tool_name == SEARCH_TOOL_NAME
            && let Some(search_tool) = &self.search_tool
        {
            match serde_json::from_value(Value::from(request.arguments)) {
                Ok(args) => search_tool.execute(args).await,
                Err(e) => Ok(CallToolResult::error(vec![ContentBlock::text(format!(
                    "Invalid input: {e}"
                ))])),
            }
        } else if tool_name == EXPLORER_TOOL_NAME
            && let Some(explorer_tool) = &self.explorer_tool
        {
            match serde_json::from_value(Value::from(request.arguments)) {
                Ok(args) => explorer_tool.execute(args).await,
                Err(e) => Ok(CallToolResult::error(vec![ContentBlock::text(format!(
                    "Invalid input: {e}"
                ))])),
            }
        } else if tool_name == EXECUTE_TOOL_NAME
            && let Some(execute_tool) = &self.execute_tool
        {
            let headers = if let Some(axum_parts) = axum_parts {
                build_request_headers(
                    &self.headers,
                    &self.forward_headers,
                    &axum_parts.headers,
                    &axum_parts.extensions,
                    self.disable_auth_token_passthrough,
                )
            } else {
                self.headers.clone()
            };

            execute_operation(
                execute_tool,
                &headers,
                request.arguments.as_ref(),
                &self.endpoint,
                &self.rhai_engine,
                axum_parts,
                &tool_name,
            )
            .await
        } else if tool_name == VALIDATE_TOOL_NAME
            && let Some(validate_tool) = &self.validate_tool
        {
            match serde_json::from_value(Value::from(request.arguments)) {
                Ok(args) => Ok(validate_tool.execute(args).await),
                Err(e) => Ok(CallToolResult::error(vec![ContentBlock::text(format!(
                    "Invalid input: {e}"
                ))])),
            }
        } else {
            let headers = if let Some(axum_parts) = axum_parts {
                build_request_headers(
                    &self.headers,
                    &self.forward_headers,
                    &axum_parts.headers,
                    &axum_parts.extensions,
                    self.disable_auth_token_passthrough,
                )
            } else {
                self.headers.clone()
            };

            if let Some(app_param) = &app_param {
                if let Some(res) = find_and_execute_app_tool(
                    &self.apps,
                    app_param,
                    &tool_name,
                    &headers,
                    request.arguments.as_ref(),
                    &self.endpoint,
                    &self.rhai_engine,
                    axum_parts,
                )
                .await
                {
                    res
                } else {
                    Err(tool_not_found(&tool_name))
                }
            } else if let Some(res) = find_and_execute_operation(
                operation.as_slice(),
                &tool_name,
                &headers,
                request.arguments.as_ref(),
                &self.endpoint,
                &self.rhai_engine,
                axum_parts,
            )
            .await
            {
                res
            } else {
                Err(tool_not_found(&tool_name))
            }
        };

        // Track errors for health check
        if let (Err(_), Some(health_check)) = (&result, &self.health_check) {
            health_check.record_rejection();
        }

        let attributes = vec![
            KeyValue::new(
                TelemetryAttribute::Success.to_key(),
                result.as_ref().is_ok_and(|r| r.is_error != Some(true)),
            ),
            KeyValue::new(TelemetryAttribute::ToolName.to_key(), tool_name),
        ];
        // Record response time and status
        meter
            .f64_histogram(TelemetryMetric::ToolDuration.as_str())
            .build()
            .record(start.elapsed().as_millis() as f64, &attributes);
        meter
            .u64_counter(TelemetryMetric::ToolCount.as_str())
            .build()
            .add(1, &attributes);

        // MCP Apps rely on structured_content; only strip for non-app calls with older protocol versions.
        if app_param.is_none()
            && !self.client_supports_output_schema(protocol_version)
            && let Ok(r) = &mut result
        {
            r.structured_content = None;
        }

        result
    }

    fn list_resources_impl(
        &self,
        extensions: &Extensions,
        protocol_version: Option<&ProtocolVersion>,
    ) -> Result<ListResourcesResult, McpError> {
        self.list_resources_with_protocol_max(
            extensions,
            protocol_version,
            &MAX_SUPPORTED_PROTOCOL_VERSION,
        )
    }

    fn list_resources_with_protocol_max(
        &self,
        extensions: &Extensions,
        protocol_version: Option<&ProtocolVersion>,
        server_max: &ProtocolVersion,
    ) -> Result<ListResourcesResult, McpError> {
        let app_param = extract_app_param(extensions);

        let resources = if let Some(app_name) = app_param {
            let app = self.apps.iter().find(|app| app.name == app_name);
            match app {
                Some(app) => vec![attach_resource_mime_type(app.resource())],
                None => {
                    return Err(McpError::new(
                        ErrorCode::INVALID_PARAMS,
                        format!("App {app_name} not found"),
                        None,
                    ));
                }
            }
        } else {
            vec![]
        };

        let result = ListResourcesResult::with_all_items(resources);
        Ok(self.caching.apply_to(result, protocol_version, server_max))
    }

    fn list_resource_templates_impl(
        &self,
        protocol_version: Option<&ProtocolVersion>,
    ) -> Result<ListResourceTemplatesResult, McpError> {
        self.list_resource_templates_with_protocol_max(
            protocol_version,
            &MAX_SUPPORTED_PROTOCOL_VERSION,
        )
    }

    fn list_resource_templates_with_protocol_max(
        &self,
        protocol_version: Option<&ProtocolVersion>,
        server_max: &ProtocolVersion,
    ) -> Result<ListResourceTemplatesResult, McpError> {
        // We expose no templates, but even an empty modern list requires cache hints.
        // rmcp's default handler returns the empty list without those hints.
        Ok(self.caching.apply_to(
            ListResourceTemplatesResult::default(),
            protocol_version,
            server_max,
        ))
    }

    async fn read_resource_impl(
        &self,
        request: rmcp::model::ReadResourceRequestParams,
        extensions: Extensions,
        peer: PeerContext<'_>,
    ) -> Result<ReadResourceResult, ErrorData> {
        self.read_resource_with_protocol_max(
            request,
            extensions,
            peer,
            &MAX_SUPPORTED_PROTOCOL_VERSION,
        )
        .await
    }

    async fn read_resource_with_protocol_max(
        &self,
        request: rmcp::model::ReadResourceRequestParams,
        extensions: Extensions,
        peer: PeerContext<'_>,
        server_max: &ProtocolVersion,
    ) -> Result<ReadResourceResult, ErrorData> {
        let request_uri = Url::parse(&request.uri).map_err(|err| {
            ErrorData::resource_not_found(
                format!("Requested resource has an invalid URI: {err}"),
                None,
            )
        })?;
        let app_param = extract_app_param(&extensions);
        let app_target = AppTarget::try_from((extensions, peer.client_capabilities))?;

        if let Some(app_name) = app_param {
            let (resource, origin) =
                get_app_resource(&self.apps, request, request_uri, &app_target, &app_name).await?;
            let result = ReadResourceResult::new(vec![resource]);
            Ok(origin
                .caching(self.caching)
                .apply_to(result, peer.protocol_version, server_max))
        } else {
            Err(ErrorData::resource_not_found(
                format!("Resource not found for URI: {}", request.uri),
                None,
            ))
        }
    }

    fn list_prompts_impl(
        &self,
        protocol_version: Option<&ProtocolVersion>,
    ) -> Result<ListPromptsResult, McpError> {
        self.list_prompts_with_protocol_max(protocol_version, &MAX_SUPPORTED_PROTOCOL_VERSION)
    }

    fn list_prompts_with_protocol_max(
        &self,
        protocol_version: Option<&ProtocolVersion>,
        server_max: &ProtocolVersion,
    ) -> Result<ListPromptsResult, McpError> {
        let result = ListPromptsResult::with_all_items(
            self.prompts.iter().map(|p| p.prompt.clone()).collect(),
        );
        Ok(self.caching.apply_to(result, protocol_version, server_max))
    }

    fn get_prompt_impl(
        &self,
        request: GetPromptRequestParams,
    ) -> Result<GetPromptResult, McpError> {
        let prompt_file = self
            .prompts
            .iter()
            .find(|p| p.prompt.name == request.name)
            .ok_or_else(|| {
                McpError::new(
                    ErrorCode::INVALID_PARAMS,
                    format!("Prompt '{}' not found", request.name),
                    None,
                )
            })?;

        // Validate required arguments are present
        if let Some(args_def) = &prompt_file.prompt.arguments {
            let provided = request.arguments.as_ref();
            for arg in args_def {
                if arg.required == Some(true)
                    && !provided.is_some_and(|a| a.contains_key(&arg.name))
                {
                    return Err(McpError::new(
                        ErrorCode::INVALID_PARAMS,
                        format!("Missing required argument: '{}'", arg.name),
                        None,
                    ));
                }
            }
        }

        let text = if let Some(arguments) = &request.arguments {
            crate::prompts::prompt_file::substitute_args(&prompt_file.template, arguments)
        } else {
            prompt_file.template.clone()
        };

        let mut result = GetPromptResult::new(vec![PromptMessage::new_text(Role::User, text)]);
        if let Some(desc) = &prompt_file.prompt.description {
            result = result.with_description(desc);
        }
        Ok(result)
    }
}

/// The newest MCP protocol version this server implements. Bumped
/// deliberately when the server adopts a new spec revision — not derived
/// from rmcp, whose `KNOWN_VERSIONS`/`LATEST` track SDK constants rather
/// than this server's capabilities.
pub(crate) const MAX_SUPPORTED_PROTOCOL_VERSION: ProtocolVersion = ProtocolVersion::V_2026_07_28;

/// Transport handler with its own legacy lifecycle. Application clones cannot
/// accidentally be served without constructing this owner.
#[derive(Clone)]
pub(super) struct McpService {
    application: Running,
    notifications: LegacyToolNotifications,
}

impl ServerHandler for McpService {
    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, McpError> {
        let (span, parent_context) = with_request_context(
            tracing::info_span!(parent: get_parent_span(&context), "initialize", apollo.mcp.client_name = request.client_info.name, apollo.mcp.client_version = request.client_info.version),
            &context,
        );
        async {
            let meter = &meter::METER;
            let attributes = vec![
                KeyValue::new(
                    TelemetryAttribute::ClientName.to_key(),
                    request.client_info.name.clone(),
                ),
                KeyValue::new(
                    TelemetryAttribute::ClientVersion.to_key(),
                    request.client_info.version.clone(),
                ),
            ];
            meter
                .u64_counter(TelemetryMetric::InitializeCount.as_str())
                .build()
                .add(1, &attributes);
            // Negotiate rather than answering with `get_info` as-is (#794).
            // `supported_protocol_versions` below bounds both this call and the
            // re-negotiation rmcp runs afterwards on every transport (#803).
            let info = self.negotiate_initialize(&request)?;
            // rmcp's negotiate_initialize only selects versions with the legacy
            // handshake; modern clients use discovery and per-request metadata.
            self.notifications
                .initialize(&self.application.tool_list_changes);
            Ok(info)
        }
        .instrument(span)
        .with_context(parent_context)
        .await
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        self.notifications
            .on_initialized(context.peer, self.application.cancellation_token.clone());
    }

    /// The protocol versions this server negotiates and advertises: every
    /// version rmcp knows, capped at [`MAX_SUPPORTED_PROTOCOL_VERSION`].
    ///
    /// This also narrows rmcp's re-negotiation (run on every transport after
    /// `initialize`), so it can't advertise a newer version from rmcp's
    /// `KNOWN_VERSIONS`.
    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Borrowed(ProtocolVersion::known_up_to(
            &MAX_SUPPORTED_PROTOCOL_VERSION,
        ))
    }

    fn accepted_subscription_filter(
        &self,
        _requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        Some(SubscriptionFilter::builder().tools_list_changed().build())
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), McpError> {
        let (span, parent_context) = with_request_context(
            tracing::info_span!(parent: get_parent_span(context.request_context()), "listen", apollo.mcp.request_id = %context.request_context().id),
            context.request_context(),
        );
        async {
            let shutdown = &self.application.cancellation_token;
            // The SDK also enforces the accepted filter in SubscriptionSink. Keep
            // our opt-in boundary explicit before allocating a catalog receiver.
            if context.accepted().tools_list_changed != Some(true) {
                // No supported notifications can arrive on this stream.
                return Ok(());
            }

            let mut changes = self.application.tool_list_changes.subscribe();
            // rmcp acknowledges before entering this handler. An initial refresh
            // covers catalog updates during that setup window, without replaying
            // history. Register first so updates during the send remain pending.
            changes.mark_changed();
            loop {
                tokio::select! {
                    biased;
                    _ = context.cancelled() => return Ok(()),
                    _ = shutdown.cancelled() => return Ok(()),
                    changed = changes.changed() => {
                        if changed.is_err() {
                            return Ok(());
                        }
                    }
                }
                let result = tokio::select! {
                    biased;
                    _ = context.cancelled() => return Ok(()),
                    _ = shutdown.cancelled() => return Ok(()),
                    result = context.sink().notify_tool_list_changed() => result,
                };
                match result {
                    Ok(()) => {}
                    Err(
                        SubscriptionSendError::SubscriptionClosed
                        | SubscriptionSendError::Service(rmcp::ServiceError::TransportClosed),
                    ) => return Ok(()),
                    Err(SubscriptionSendError::Service(rmcp::ServiceError::TransportSend(
                        error,
                    ))) => {
                        error!(
                            ?error,
                            "Failed to deliver tool list change - stopping subscription delivery"
                        );
                        return Ok(());
                    }
                    Err(
                        error @ (SubscriptionSendError::NotificationNotAccepted(_)
                        | SubscriptionSendError::UnsupportedNotification(_)),
                    ) => {
                        // Invalid notifications indicate a handler bug; end this
                        // subscription instead of retrying on every catalog change.
                        error!(
                            ?error,
                            "Failed to deliver tool list change - stopping subscription delivery"
                        );
                        return Err(McpError::internal_error(
                            "Failed to deliver tool list change notification",
                            None,
                        ));
                    }
                    Err(error) => {
                        // Unknown errors may be recoverable. Keep listening so a
                        // later catalog change can trigger another delivery attempt.
                        // rmcp 3.3.0's notification-send path only returns the transport
                        // errors handled above, so real-context tests cannot reach
                        // this fallback for future SDK errors.
                        error!(
                            ?error,
                            "Failed to deliver tool list change - keeping subscription open"
                        );
                    }
                }
            }
        }
        .instrument(span)
        .with_context(parent_context)
        .await
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let (span, parent_context) = with_request_context(
            tracing::info_span!(parent: get_parent_span(&context), "call_tool", apollo.mcp.tool_name = request.name.as_ref(), apollo.mcp.request_id = %context.id.clone(), apollo.mcp.tool_arguments = tracing::field::Empty, apollo.mcp.tool_result = tracing::field::Empty),
            &context,
        );
        let execution_span = span.clone();
        let execution_parent = parent_context.clone();
        async {
            let span = tracing::Span::current();
            if let Some(args) = &request.arguments
                && let Ok(json) = serde_json::to_string(args)
            {
                span.record("apollo.mcp.tool_arguments", json.as_str());
            }

            let protocol_version = context.protocol_version();

            // Snapshot before returning any handle, including immediate
            // detachment, so later catalog reloads cannot change this call.
            let operation = self
                .application
                .operations
                .read()
                .await
                .iter()
                .find(|op| op.as_ref().name == request.name)
                .cloned();
            let tasks = self
                .application
                .tasks
                .as_ref()
                // rmcp also checks the response, but checking before execution
                // prevents creating inaccessible work for non-declaring clients.
                .filter(|_| {
                    context
                        .client_capabilities()
                        .is_some_and(|caps| caps.supports_tasks())
                })
                .filter(|_| {
                    self.application.is_graphql_tool(
                        &request,
                        &context.extensions,
                        operation.as_ref(),
                    )
                });
            let Some(tasks) = tasks else {
                let result = self
                    .application
                    .call_tool_impl(
                        request,
                        &context.extensions,
                        protocol_version.as_ref(),
                        operation,
                    )
                    .await;
                record_tool_result(&span, &result);
                return result.map(Into::into);
            };
            let owner = request_principal(&context.extensions);
            let mut application = self.application.clone();
            // The worker must not own its runtime: that would keep the task
            // manager alive through its own stored worker on teardown.
            application.tasks = None;
            let extensions = context.extensions.clone();
            let execution = async move {
                let result = application
                    .call_tool_impl(request, &extensions, protocol_version.as_ref(), operation)
                    .await;
                record_tool_result(&span, &result);
                result
            }
            // Preserve the actual handler span, including a disabled span.
            // Re-entering Span::current() when filtered would re-enter the HTTP
            // parent and overwrite the request's metadata-derived context.
            .instrument(execution_span)
            .with_context(execution_parent);
            let mut execution: super::tasks::Execution = Box::pin(execution);
            if !tasks.delay().is_zero() {
                tokio::select! {
                    biased;
                    result = &mut execution => return result.map(Into::into),
                    _ = tokio::time::sleep(tasks.delay()) => {},
                }
            }
            match tasks.detach(owner, execution) {
                Ok(task) => Ok(CallToolResponse::Task(task)),
                Err(pending) => pending.await.map(Into::into),
            }
        }
        .instrument(span)
        .with_context(parent_context)
        .await
    }

    async fn get_task(
        &self,
        request: rmcp::model::GetTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::GetTaskResult, McpError> {
        let tasks = self
            .application
            .tasks
            .as_ref()
            .ok_or_else(McpError::method_not_found::<rmcp::model::GetTaskMethod>)?;
        let owner = request_principal(&context.extensions);
        tasks
            .get(&request.task_id, owner.as_ref())
            .map(rmcp::model::GetTaskResult::new)
    }

    async fn cancel_task(
        &self,
        request: rmcp::model::CancelTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        let tasks = self
            .application
            .tasks
            .as_ref()
            .ok_or_else(McpError::method_not_found::<rmcp::model::CancelTaskMethod>)?;
        let owner = request_principal(&context.extensions);
        tasks.cancel(&request.task_id, owner.as_ref())
    }

    async fn update_task(
        &self,
        request: rmcp::model::UpdateTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        let tasks = self
            .application
            .tasks
            .as_ref()
            .ok_or_else(McpError::method_not_found::<rmcp::model::UpdateTaskMethod>)?;
        let owner = request_principal(&context.extensions);
        tasks.update(&request.task_id, owner.as_ref(), request.input_responses)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        let (span, parent_context) = with_request_context(
            tracing::info_span!(parent: get_parent_span(&context), "list_tools"),
            &context,
        );
        async {
            let client_capabilities = context.client_capabilities();
            let protocol_version = context.protocol_version();
            let peer = PeerContext {
                client_capabilities: client_capabilities.as_ref(),
                protocol_version: protocol_version.as_ref(),
            };

            self.application
                .list_tools_impl(context.extensions, peer)
                .await
        }
        .instrument(span)
        .with_context(parent_context)
        .await
    }

    /// Lets rmcp check `Mcp-Param-*` headers. rmcp caches the answer per name for the
    /// life of the service, so it's built from static config rather than the operations
    /// that reloads change. Built-in tools have no annotations.
    fn get_tool(&self, name: &str) -> Option<Tool> {
        if self.application.is_builtin_tool(name) {
            return None;
        }
        let headers = self.application.param_headers.get(name)?;
        Some(Tool::new(
            name.to_string(),
            "",
            Arc::new(headers.annotation_schema()),
        ))
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let (span, parent_context) = with_request_context(
            tracing::info_span!(parent: get_parent_span(&context), "list_resources"),
            &context,
        );
        async {
            let protocol_version = context.protocol_version();

            self.application
                .list_resources_impl(&context.extensions, protocol_version.as_ref())
        }
        .instrument(span)
        .with_context(parent_context)
        .await
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, McpError> {
        let (span, parent_context) = with_request_context(
            tracing::info_span!(parent: get_parent_span(&context), "list_resource_templates"),
            &context,
        );
        async {
            let protocol_version = context.protocol_version();

            self.application
                .list_resource_templates_impl(protocol_version.as_ref())
        }
        .instrument(span)
        .with_context(parent_context)
        .await
    }

    async fn read_resource(
        &self,
        request: rmcp::model::ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let (span, parent_context) = with_request_context(
            tracing::info_span!(parent: get_parent_span(&context), "read_resource", apollo.mcp.resource_uri = request.uri.as_str(), apollo.mcp.request_id = %context.id.clone()),
            &context,
        );
        async {
            let client_capabilities = context.client_capabilities();
            let protocol_version = context.protocol_version();
            let peer = PeerContext {
                client_capabilities: client_capabilities.as_ref(),
                protocol_version: protocol_version.as_ref(),
            };

            self.application
                .read_resource_impl(request, context.extensions, peer)
                .await
                .map(Into::into)
        }
        .instrument(span)
        .with_context(parent_context)
        .await
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, McpError> {
        let (span, parent_context) = with_request_context(
            tracing::info_span!(parent: get_parent_span(&context), "list_prompts"),
            &context,
        );
        async {
            let protocol_version = context.protocol_version();

            self.application
                .list_prompts_impl(protocol_version.as_ref())
        }
        .instrument(span)
        .with_context(parent_context)
        .await
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, McpError> {
        let (span, parent_context) = with_request_context(
            tracing::info_span!(parent: get_parent_span(&context), "get_prompt", apollo.mcp.prompt_name = request.name),
            &context,
        );
        async { self.application.get_prompt_impl(request).map(Into::into) }
            .instrument(span)
            .with_context(parent_context)
            .await
    }

    // SEP-2575 removes this RPC in 2026-07-28, independently of SEP-2577's
    // deprecation of Logging. Older clients retain the compatibility no-op.
    #[allow(deprecated)]
    async fn set_level(
        &self,
        request: rmcp::model::SetLevelRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        let (span, parent_context) = with_request_context(
            tracing::info_span!(parent: get_parent_span(&context), "set_level"),
            &context,
        );
        async {
            // rmcp 3.5 dispatches this method for every version; its modern HTTP
            // transport maps this method-not-found error to HTTP 404.
            if context
                .protocol_version()
                .is_some_and(|version| version >= ProtocolVersion::V_2026_07_28)
            {
                return Err(McpError::method_not_found::<
                    rmcp::model::SetLevelRequestMethod,
                >());
            }
            // We do not advertise the `logging` capability and do not emit
            // `notifications/message`. This override exists only to accept
            // `logging/setLevel` from clients that send it without checking
            // capabilities, so they see an empty success instead of `-32601`.
            debug!(level = ?request.level, "received logging/setLevel; no-op");
            Ok(())
        }
        .instrument(span)
        .with_context(parent_context)
        .await
    }

    fn get_info(&self) -> ServerConfig {
        let meter = &meter::METER;
        meter
            .u64_counter(TelemetryMetric::GetInfoCount.as_str())
            .build()
            .add(1, &[]);

        let mut capabilities = if self.application.tasks.is_some() {
            ServerCapabilities::builder().enable_tasks().build()
        } else {
            ServerCapabilities::default()
        };
        let mut tools = ToolsCapability::default();
        tools.list_changed = Some(true);
        capabilities.tools = Some(tools);
        capabilities.resources =
            (!self.application.apps.is_empty()).then(ResourcesCapability::default);
        capabilities.prompts =
            (!self.application.prompts.is_empty()).then(PromptsCapability::default);

        // Load-bearing: negotiation falls back to this when it cannot honor
        // the version the client asked for.
        let protocol_version = MAX_SUPPORTED_PROTOCOL_VERSION;

        let mut impl_ = Implementation::new(
            self.application.server_info.name().to_string(),
            self.application.server_info.version().to_string(),
        );
        if let Some(t) = self.application.server_info.title() {
            impl_ = impl_.with_title(t);
        }
        if let Some(d) = self.application.server_info.description() {
            impl_ = impl_.with_description(d);
        }
        if let Some(u) = self.application.server_info.website_url() {
            impl_ = impl_.with_website_url(u);
        }
        if let Some(icons) = self.application.server_info.icons() {
            impl_ = impl_.with_icons(icons);
        }
        let mut result = InitializeResult::new(capabilities)
            .with_protocol_version(protocol_version)
            .with_server_info(impl_);
        if let Some(instructions) = self.application.instructions.as_deref() {
            result = result.with_instructions(instructions);
        }
        result
    }
}

// Strip meta before recording: _meta.structuredContent holds the unfiltered
// @private payload and must not be exported to the span.
fn record_tool_result(span: &tracing::Span, result: &Result<CallToolResult, McpError>) {
    if let Ok(r) = result {
        let mut stripped = r.clone();
        stripped.meta = None;
        if let Ok(json) = serde_json::to_string(&stripped) {
            span.record("apollo.mcp.tool_result", json.as_str());
        }
    }
}

fn request_principal(extensions: &Extensions) -> Option<crate::auth::Principal> {
    extensions
        .get::<axum::http::request::Parts>()
        .and_then(|parts| parts.extensions.get::<crate::auth::ValidToken>())
        .map(|token| token.principal.clone())
}

fn extract_app_param(extensions: &Extensions) -> Option<String> {
    app_param_from_query(
        extensions
            .get::<axum::http::request::Parts>()
            .and_then(|parts| parts.uri.query()),
    )
}

fn tool_not_found(name: &str) -> McpError {
    McpError::new(
        ErrorCode::INVALID_PARAMS,
        format!("Tool {name} not found"),
        None,
    )
}

#[cfg(test)]
mod tests {
    use rmcp::model::{JsonObject, Tool};

    use crate::apps::{
        App,
        app::{AppResource, AppTool},
        manifest::{AppLabels, CSPSettings, WidgetSettings},
    };

    use super::*;

    fn test_running(schema: Arc<RwLock<Valid<Schema>>>) -> Running {
        Running {
            schema,
            operations: Arc::new(RwLock::new(vec![])),
            apps: vec![],
            prompts: vec![],
            headers: HeaderMap::new(),
            forward_headers: vec![],
            endpoint: "http://localhost:4000".parse().unwrap(),
            execute_tool: None,
            introspect_tool: None,
            search_tool: None,
            explorer_tool: None,
            validate_tool: None,
            custom_scalar_map: None,
            tool_list_changes: Default::default(),
            cancellation_token: CancellationToken::new(),
            mutation_mode: MutationMode::None,
            disable_type_description: false,
            disable_schema_description: false,
            enable_output_schema: false,
            disable_auth_token_passthrough: false,
            descriptions: HashMap::new(),
            annotations: HashMap::new(),
            param_headers: HashMap::new(),
            health_check: None,
            server_info: ServerInfoConfig::default(),
            instructions: None,
            rhai_engine: SharedRhaiEngine::new("rhai"),
            caching: Caching::default(),
            tasks: Default::default(),
        }
    }

    const RESOURCE_URI: &str = "http://localhost:4000/resource#1234";

    fn running_with_apps(
        resource: AppResource,
        csp_settings: Option<CSPSettings>,
        widget_settings: Option<WidgetSettings>,
    ) -> Running {
        let schema = Schema::parse("type Query { id: String }", "schema.graphql")
            .unwrap()
            .validate()
            .unwrap();

        let app = App {
            name: "MyApp".to_string(),
            description: None,
            tools: vec![AppTool {
                operation: Arc::new(
                    RawOperation::from(("query GetId { id }".to_string(), None))
                        .into_operation(
                            &schema,
                            None,
                            MutationMode::All,
                            false,
                            false,
                            true,
                            &HashMap::new(),
                            &HashMap::new(),
                            &HashMap::new(),
                        )
                        .unwrap()
                        .unwrap(),
                ),
                labels: AppLabels::default(),
                tool: Tool::new("GetId", "a description", JsonObject::new()),
                extra_outputs: None,
            }],
            resource,
            uri: RESOURCE_URI.parse().unwrap(),
            prefetch_operations: vec![],
            csp_settings,
            widget_settings,
        };

        Running {
            apps: vec![app],
            ..test_running(Arc::new(RwLock::new(schema)))
        }
    }

    mod protocol_2026_07_28 {
        use super::*;
        use axum::body::Body;
        use http_body_util::BodyExt as _;
        use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
        use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
        use serde_json::json;
        use tower::ServiceExt as _;

        async fn request(
            version: &str,
            method: &str,
            params: Value,
            uri: &str,
            json_response: bool,
            method_header: Option<&str>,
        ) -> (http::StatusCode, Value) {
            let mut running = running_with_apps(
                AppResource::Single(crate::apps::app::AppResourceSource::Local("content".into())),
                None,
                None,
            );
            running.caching.ttl_ms = 60_000;
            request_with_running(
                running,
                version,
                method,
                params,
                uri,
                json_response,
                method_header,
            )
            .await
        }

        async fn request_with_running(
            running: Running,
            version: &str,
            method: &str,
            mut params: Value,
            uri: &str,
            json_response: bool,
            method_header: Option<&str>,
        ) -> (http::StatusCode, Value) {
            let service = StreamableHttpService::new(
                move || Ok(running.for_service()),
                Arc::new(LocalSessionManager::default()),
                StreamableHttpServerConfig::default()
                    .with_legacy_session_mode(false)
                    .with_json_response(json_response),
            );
            params["_meta"] = json!({
                "io.modelcontextprotocol/protocolVersion": version,
                "io.modelcontextprotocol/clientCapabilities": {},
                "io.modelcontextprotocol/clientInfo": {"name": "regression-test", "version": "1"}
            });
            let request = http::Request::builder()
                .method("POST")
                .uri(uri)
                .header("Host", "localhost")
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .header("Mcp-Protocol-Version", version);
            let request = match method_header {
                Some(value) => request.header("Mcp-Method", value),
                None => request,
            };
            let request = match method {
                "resources/read" => request.header("Mcp-Name", params["uri"].as_str().unwrap()),
                "tools/call" => request.header("Mcp-Name", params["name"].as_str().unwrap()),
                _ => request,
            };
            let request = request
                .body(Body::from(
                    json!({
                        "jsonrpc": "2.0", "id": 42, "method": method, "params": params
                    })
                    .to_string(),
                ))
                .unwrap();
            let response = service.oneshot(request).await.unwrap();
            let status = response.status();
            let body = if response.headers()[http::header::CONTENT_TYPE]
                .to_str()
                .unwrap()
                .starts_with("text/event-stream")
            {
                let mut reader =
                    super::super::test_support::SseReader::new(Body::new(response.into_body()));
                super::super::test_support::next_message(&mut reader).await
            } else {
                let bytes = response.into_body().collect().await.unwrap().to_bytes();
                serde_json::from_slice(&bytes).unwrap()
            };
            (status, body)
        }

        const APP_URI: &str = "ui://widget/transport-fixture#v1";
        const APP_HTML: &str = "<html><body>transport fixture</body></html>";

        fn resource_fixture(source: crate::apps::app::AppResourceSource) -> Running {
            let mut running = running_with_apps(AppResource::Single(source), None, None);
            running.apps[0].uri = APP_URI.parse().unwrap();
            running.caching.ttl_ms = 60_000;
            running
        }

        fn assert_resource_response(status: http::StatusCode, body: &Value, version: &str) {
            assert_eq!(status, http::StatusCode::OK, "{body}");
            assert_eq!(body["id"], 42);
            assert!(body.get("error").is_none(), "{body}");
            if version == "2026-07-28" {
                assert_eq!(body["result"]["resultType"], "complete", "{body}");
            } else {
                assert!(body["result"].get("resultType").is_none(), "{body}");
            }
        }

        #[rstest::rstest]
        #[tokio::test]
        async fn local_app_resources_preserve_content_and_protocol_cache_hints(
            #[values("2026-07-28", "2025-11-25")] version: &str,
            #[values("resources/list", "resources/read")] method: &str,
            #[values(false, true)] json_response: bool,
        ) {
            let running =
                resource_fixture(crate::apps::app::AppResourceSource::Local(APP_HTML.into()));
            let params = if method == "resources/read" {
                json!({"uri": APP_URI})
            } else {
                json!({})
            };
            let (status, body) = request_with_running(
                running,
                version,
                method,
                params,
                "/mcp?app=MyApp&appTarget=mcp",
                json_response,
                Some(method),
            )
            .await;
            assert_resource_response(status, &body, version);
            let result = &body["result"];
            let items = result[if method == "resources/list" {
                "resources"
            } else {
                "contents"
            }]
            .as_array()
            .unwrap();
            assert_eq!(items.len(), 1, "{body}");
            assert_eq!(items[0]["uri"], APP_URI);
            assert_eq!(items[0]["mimeType"], "text/html;profile=mcp-app");
            if method == "resources/read" {
                assert_eq!(items[0]["text"], APP_HTML);
            }
            if version == "2026-07-28" {
                assert_eq!(result["ttlMs"], 60_000);
                assert_eq!(result["cacheScope"], "private");
            } else {
                assert!(result.get("ttlMs").is_none(), "{body}");
                assert!(result.get("cacheScope").is_none(), "{body}");
            }
        }

        #[rstest::rstest]
        #[tokio::test]
        async fn remote_app_resources_preserve_content_and_are_immediately_stale(
            #[values("2026-07-28", "2025-11-25")] version: &str,
            #[values(false, true)] json_response: bool,
        ) {
            let mut server = mockito::Server::new_async().await;
            let mock = server
                .mock("GET", "/widget")
                .with_status(200)
                .with_body(APP_HTML)
                .expect(1)
                .create_async()
                .await;
            let running = resource_fixture(crate::apps::app::AppResourceSource::Remote(
                format!("{}/widget", server.url()).parse().unwrap(),
            ));
            let (status, body) = request_with_running(
                running,
                version,
                "resources/read",
                json!({"uri": APP_URI}),
                "/mcp?app=MyApp&appTarget=mcp",
                json_response,
                Some("resources/read"),
            )
            .await;
            mock.assert_async().await;
            assert_resource_response(status, &body, version);
            let result = &body["result"];
            let contents = result["contents"].as_array().unwrap();
            assert_eq!(contents.len(), 1, "{body}");
            assert_eq!(contents[0]["uri"], APP_URI);
            assert_eq!(contents[0]["mimeType"], "text/html;profile=mcp-app");
            assert_eq!(contents[0]["text"], APP_HTML);
            if version == "2026-07-28" {
                assert_eq!(result["ttlMs"], 0, "{body}");
                assert_eq!(result["cacheScope"], "private", "{body}");
            } else {
                assert!(result.get("ttlMs").is_none(), "{body}");
                assert!(result.get("cacheScope").is_none(), "{body}");
            }
        }

        #[rstest::rstest]
        #[case::modern("2026-07-28", -32602)]
        #[case::legacy("2025-11-25", -32002)]
        #[tokio::test]
        async fn missing_resource_is_an_error_without_contents(
            #[case] version: &str,
            #[case] code: i32,
            #[values("/mcp", "/mcp?app=MyApp")] uri: &str,
            #[values(false, true)] json_response: bool,
        ) {
            let (status, body) = request(
                version,
                "resources/read",
                json!({"uri": "ui://missing/does-not-exist"}),
                uri,
                json_response,
                Some("resources/read"),
            )
            .await;
            assert_eq!(status, http::StatusCode::OK, "{body}");
            assert_eq!(body["id"], 42);
            assert_eq!(body["error"]["code"], code, "{body}");
            assert!(
                body.get("result").is_none(),
                "missing resources must never return contents: {body}"
            );
        }

        #[rstest::rstest]
        #[tokio::test]
        async fn unknown_tool_is_invalid_params(
            #[values("2026-07-28", "2025-11-25")] version: &str,
            #[values("/mcp", "/mcp?app=MyApp")] uri: &str,
            #[values(false, true)] json_response: bool,
        ) {
            let (status, body) = request(
                version,
                "tools/call",
                json!({"name": "DoesNotExist", "arguments": {}}),
                uri,
                json_response,
                Some("tools/call"),
            )
            .await;
            // Unknown tools are an in-band error, not a malformed or unsupported request.
            assert_eq!(status, http::StatusCode::OK, "{body}");
            assert_eq!(body["id"], 42);
            assert_eq!(body["error"]["code"], -32602, "{body}");
        }

        #[rstest::rstest]
        #[case::modern("2026-07-28", json!({
            "resourceTemplates": [], "resultType": "complete",
            "ttlMs": 60_000, "cacheScope": "private"
        }))]
        #[case::legacy("2025-11-25", json!({"resourceTemplates": []}))]
        #[tokio::test]
        async fn empty_template_list_uses_protocol_appropriate_cache_hints(
            #[case] version: &str,
            #[case] expected: Value,
            #[values(false, true)] json_response: bool,
        ) {
            let (status, body) = request(
                version,
                "resources/templates/list",
                json!({}),
                "/mcp",
                json_response,
                Some("resources/templates/list"),
            )
            .await;
            assert_eq!(status, http::StatusCode::OK, "{body}");
            assert_eq!(body["id"], 42);
            assert!(body.get("error").is_none(), "{body}");
            let mut result = body["result"].clone();
            // rmcp attaches server metadata separately from the result's protocol fields.
            result.as_object_mut().unwrap().remove("_meta");
            assert_eq!(result, expected);
        }

        #[rstest::rstest]
        #[case::discovery("server/discover", json!({}))]
        #[case::tools("tools/list", json!({}))]
        #[case::resources("resources/list", json!({}))]
        #[case::prompts("prompts/list", json!({}))]
        #[case::read("resources/read", json!({"uri": RESOURCE_URI}))]
        #[tokio::test]
        async fn successful_results_are_complete(
            #[case] method: &str,
            #[case] params: Value,
            #[values(false, true)] json_response: bool,
        ) {
            let (status, body) = request(
                "2026-07-28",
                method,
                params,
                "/mcp?app=MyApp",
                json_response,
                Some(method),
            )
            .await;
            assert_eq!(status, http::StatusCode::OK, "{body}");
            assert_eq!(body["id"], 42);
            assert!(body.get("error").is_none(), "{body}");
            assert_eq!(body["result"]["resultType"], "complete", "{body}");
            if method == "resources/read" {
                assert_eq!(body["result"]["contents"][0]["text"], "content");
            }
        }

        #[rstest::rstest]
        #[tokio::test]
        async fn unknown_method_returns_http_not_found(#[values(false, true)] json_response: bool) {
            let (status, body) = request(
                "2026-07-28",
                "unknown/method",
                json!({}),
                "/mcp",
                json_response,
                Some("unknown/method"),
            )
            .await;
            assert_eq!(status, http::StatusCode::NOT_FOUND, "{body}");
            assert_eq!(body["id"], 42);
            assert_eq!(body["error"]["code"], -32601);
            assert!(body.get("result").is_none());
        }
        #[rstest::rstest]
        #[case::missing(None)]
        #[case::mismatched(Some("resources/list"))]
        #[tokio::test]
        async fn modern_requests_enforce_standard_method_header(#[case] header: Option<&str>) {
            let (status, body) =
                request("2026-07-28", "tools/list", json!({}), "/mcp", true, header).await;
            assert_eq!(status, http::StatusCode::BAD_REQUEST, "{body}");
            assert_eq!(
                body["error"]["code"],
                rmcp::model::ErrorCode::HEADER_MISMATCH.0,
                "{body}"
            );
            assert!(body.get("result").is_none());
        }

        /// The auth middleware exempts this `GET` from token validation on the
        /// premise that the production transport never serves it, even with
        /// `stateful_mode: true`.
        #[rstest::rstest]
        #[tokio::test]
        async fn modern_get_is_method_not_allowed(#[values(false, true)] stateful_mode: bool) {
            let running = running_with_apps(
                AppResource::Single(crate::apps::app::AppResourceSource::Local("content".into())),
                None,
                None,
            );
            let service = crate::server::states::starting::build_http_service(
                running,
                stateful_mode,
                &Default::default(),
            );
            let request = http::Request::builder()
                .method("GET")
                .uri("/mcp")
                .header("Host", "localhost")
                .header("Accept", "text/event-stream")
                .header("Mcp-Protocol-Version", "2026-07-28")
                .body(Body::empty())
                .unwrap();
            let response = service.oneshot(request).await.unwrap();
            assert_eq!(response.status(), http::StatusCode::METHOD_NOT_ALLOWED);
        }
    }

    #[rstest::rstest]
    #[case::default(Caching::default())]
    #[case::custom(Caching { ttl_ms: 60_000 })]
    #[case::zero(Caching { ttl_ms: 0 })]
    #[tokio::test]
    async fn configured_cache_hints_reach_all_handlers_when_protocol_supported(
        #[case] caching: Caching,
    ) {
        use crate::apps::app::AppResourceSource;
        use rmcp::model::{Prompt, ReadResourceRequestParams};

        let mut running = running_with_apps(
            AppResource::Single(AppResourceSource::Local("content".into())),
            None,
            None,
        );
        running.caching = caching;
        running.prompts = vec![crate::prompts::PromptFile {
            prompt: Prompt::new("test", Some("description"), None),
            template: "content".into(),
        }];
        let mut extensions = Extensions::new();
        let (parts, _) = axum::http::Request::builder()
            .uri("http://localhost?app=MyApp")
            .body(())
            .unwrap()
            .into_parts();
        extensions.insert(parts);
        let version = ProtocolVersion::V_2026_07_28;
        let peer = PeerContext::with_protocol_version(&version);

        let tools = running
            .list_tools_with_protocol_max(extensions.clone(), peer, &version)
            .await
            .unwrap();
        let resources = running
            .list_resources_with_protocol_max(&extensions, Some(&version), &version)
            .unwrap();
        let read = running
            .read_resource_with_protocol_max(
                ReadResourceRequestParams::new(RESOURCE_URI),
                extensions,
                peer,
                &version,
            )
            .await
            .unwrap();
        let prompts = running
            .list_prompts_with_protocol_max(Some(&version), &version)
            .unwrap();
        let templates = running
            .list_resource_templates_with_protocol_max(Some(&version), &version)
            .unwrap();

        assert!(!tools.tools.is_empty());
        assert!(!resources.resources.is_empty());
        assert!(!read.contents.is_empty());
        assert!(!prompts.prompts.is_empty());
        for (method, ttl_ms, scope) in [
            ("tools/list", tools.ttl_ms, tools.cache_scope),
            ("resources/list", resources.ttl_ms, resources.cache_scope),
            ("resources/read", read.ttl_ms, read.cache_scope),
            ("prompts/list", prompts.ttl_ms, prompts.cache_scope),
            (
                "resources/templates/list",
                templates.ttl_ms,
                templates.cache_scope,
            ),
        ] {
            assert_eq!(
                (ttl_ms, scope),
                (Some(caching.ttl_ms), Some(CacheScope::Private)),
                "{method}"
            );
        }
    }

    #[tokio::test]
    async fn request_capabilities_override_legacy_info_without_leaking_to_later_requests() {
        use crate::apps::app::{AppResourceSource, TargetedAppResource};
        use rmcp::model::{ReadResourceRequestParams, ResourceContents};

        let mut running = running_with_apps(
            AppResource::Targeted(TargetedAppResource {
                openai: Some(AppResourceSource::Local("openai resource".into())),
                mcp: Some(AppResourceSource::Local("mcp resource".into())),
            }),
            None,
            None,
        );
        running.apps[0].tools[0].labels.tool_invocation_invoking = Some("Loading".into());
        let legacy_info = serde_json::from_value(serde_json::json!({
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "legacy", "version": "1"}
        }))
        .unwrap();
        let (server_io, _client_io) = tokio::io::duplex(4096);
        let service =
            rmcp::service::serve_directly(running.for_service(), server_io, Some(legacy_info));
        let mcp_capabilities: ClientCapabilities = serde_json::from_value(serde_json::json!({
            "extensions": {"io.modelcontextprotocol/ui": {"mimeTypes": ["text/html;profile=mcp-app"]}}
        })).unwrap();

        for (capabilities, expected_resource, openai) in [
            (Some(mcp_capabilities), "mcp resource", false),
            (None, "openai resource", true),
        ] {
            let mut context =
                RequestContext::new(rmcp::model::RequestId::Number(1), service.peer().clone());
            let (parts, _) = http::Request::builder()
                .uri("http://localhost?app=MyApp")
                .body(())
                .unwrap()
                .into_parts();
            context.extensions.insert(parts);
            if let Some(capabilities) = capabilities {
                context.meta.set_client_capabilities(capabilities);
            }
            let tools = running
                .for_service()
                .list_tools(None, context.clone())
                .await
                .unwrap();
            assert_eq!(
                tools.tools[0]
                    .meta
                    .as_ref()
                    .unwrap()
                    .contains_key("openai/toolInvocation/invoking"),
                openai
            );
            let resource = running
                .for_service()
                .read_resource(ReadResourceRequestParams::new(RESOURCE_URI), context)
                .await
                .unwrap();
            let rmcp::model::ReadResourceResponse::Complete(resource) = resource else {
                panic!("expected resource result");
            };
            let ResourceContents::TextResourceContents { text, .. } = &resource.contents[0] else {
                panic!("expected text resource");
            };
            assert_eq!(text, expected_resource);
        }
        service.cancel().await.unwrap();
    }

    mod supported_protocol_versions {
        use super::*;

        fn supported() -> Cow<'static, [ProtocolVersion]> {
            let schema = Schema::parse("type Query { id: String }", "schema.graphql")
                .unwrap()
                .validate()
                .unwrap();

            test_running(Arc::new(RwLock::new(schema)))
                .for_service()
                .supported_protocol_versions()
        }

        #[test]
        fn advertises_the_max_supported_version() {
            let supported = supported();

            assert!(
                supported.contains(&MAX_SUPPORTED_PROTOCOL_VERSION),
                "advertised versions {supported:?} must include the server's max"
            );
        }

        #[test]
        fn never_advertises_a_version_above_the_max_supported() {
            let supported = supported();

            let newer: Vec<_> = supported
                .iter()
                .filter(|version| **version > MAX_SUPPORTED_PROTOCOL_VERSION)
                .collect();

            assert!(
                newer.is_empty(),
                "advertised versions newer than {MAX_SUPPORTED_PROTOCOL_VERSION}: {newer:?}"
            );
        }
    }

    mod update_operations {
        use super::*;
        use rmcp::model::Tool;

        #[tokio::test]
        async fn invalid_operations_should_not_crash_server() {
            let schema = Schema::parse("type Query { id: String }", "schema.graphql")
                .unwrap()
                .validate()
                .unwrap();

            let operations = Arc::new(RwLock::new(vec![]));

            let running = Running {
                operations: operations.clone(),
                ..test_running(Arc::new(RwLock::new(schema)))
            };

            let new_operations = vec![
                RawOperation::from((
                    "query Valid { id }".to_string(),
                    Some("valid.graphql".to_string()),
                )),
                RawOperation::from((
                    "query Invalid {{ id }".to_string(),
                    Some("invalid.graphql".to_string()),
                )),
                RawOperation::from((
                    "query { id }".to_string(),
                    Some("unnamed.graphql".to_string()),
                )),
            ];

            running.update_operations(new_operations.clone()).await;

            // Check that our local copy of operations is updated, representing what the server sees
            let updated_operations = operations.read().await;

            assert_eq!(updated_operations.len(), 1);
            assert_eq!(updated_operations.first().unwrap().as_ref().name, "Valid");
        }

        #[tokio::test]
        async fn overrides_descriptions_applied_to_operations() {
            let schema = Schema::parse("type Query { id: String }", "schema.graphql")
                .unwrap()
                .validate()
                .unwrap();

            let operations = Arc::new(RwLock::new(vec![]));

            let descriptions = HashMap::from([(
                "GetId".to_string(),
                "Custom description for GetId".to_string(),
            )]);

            let running = Running {
                operations: operations.clone(),
                descriptions,
                ..test_running(Arc::new(RwLock::new(schema)))
            };

            let new_operations = vec![RawOperation::from((
                "query GetId { id }".to_string(),
                Some("get_id.graphql".to_string()),
            ))];

            running.update_operations(new_operations).await;

            let updated = operations.read().await;
            let tool: &Tool = updated.first().unwrap().as_ref();
            assert_eq!(
                tool.description.as_deref(),
                Some("Custom description for GetId"),
                "Override description should replace auto-generated one"
            );
        }

        #[tokio::test]
        async fn overrides_descriptions_do_not_affect_unmatched_operations() {
            let schema = Schema::parse("type Query { id: String }", "schema.graphql")
                .unwrap()
                .validate()
                .unwrap();

            let operations = Arc::new(RwLock::new(vec![]));

            let descriptions = HashMap::from([(
                "NonExistent".to_string(),
                "This should not match anything".to_string(),
            )]);

            let running = Running {
                operations: operations.clone(),
                descriptions,
                ..test_running(Arc::new(RwLock::new(schema)))
            };

            let new_operations = vec![RawOperation::from((
                "query GetId { id }".to_string(),
                Some("get_id.graphql".to_string()),
            ))];

            running.update_operations(new_operations).await;

            let updated = operations.read().await;
            let tool: &Tool = updated.first().unwrap().as_ref();
            assert_ne!(
                tool.description.as_deref(),
                Some("This should not match anything"),
                "Unmatched override description should not be applied"
            );
        }

        #[tokio::test]
        async fn overrides_annotations_applied_to_operations() {
            let schema = Schema::parse("type Query { id: String }", "schema.graphql")
                .unwrap()
                .validate()
                .unwrap();

            let operations = Arc::new(RwLock::new(vec![]));

            let annotations = HashMap::from([(
                "GetId".to_string(),
                AnnotationOverrides {
                    idempotent_hint: Some(true),
                    open_world_hint: Some(false),
                    ..Default::default()
                },
            )]);

            let running = Running {
                operations: operations.clone(),
                annotations,
                ..test_running(Arc::new(RwLock::new(schema)))
            };

            let new_operations = vec![RawOperation::from((
                "query GetId { id }".to_string(),
                Some("get_id.graphql".to_string()),
            ))];

            running.update_operations(new_operations).await;

            let updated = operations.read().await;
            let tool: &Tool = updated.first().unwrap().as_ref();
            let ann = tool.annotations.as_ref().unwrap();
            assert_eq!(
                ann.idempotent_hint,
                Some(true),
                "Override annotation should be applied"
            );
            assert_eq!(
                ann.open_world_hint,
                Some(false),
                "Override annotation should be applied"
            );
            assert_eq!(
                ann.read_only_hint,
                Some(true),
                "Auto-detected hint should be preserved"
            );
        }

        #[tokio::test]
        async fn overrides_annotations_do_not_affect_unmatched_operations() {
            let schema = Schema::parse("type Query { id: String }", "schema.graphql")
                .unwrap()
                .validate()
                .unwrap();

            let operations = Arc::new(RwLock::new(vec![]));

            let annotations = HashMap::from([(
                "NonExistent".to_string(),
                AnnotationOverrides {
                    idempotent_hint: Some(false),
                    ..Default::default()
                },
            )]);

            let running = Running {
                operations: operations.clone(),
                annotations,
                ..test_running(Arc::new(RwLock::new(schema)))
            };

            let new_operations = vec![RawOperation::from((
                "query GetId { id }".to_string(),
                Some("get_id.graphql".to_string()),
            ))];

            running.update_operations(new_operations).await;

            let updated = operations.read().await;
            let tool: &Tool = updated.first().unwrap().as_ref();
            let ann = tool.annotations.as_ref().unwrap();
            assert_eq!(
                ann.idempotent_hint,
                Some(true),
                "Unmatched override (false) must not replace auto-detected default (true)"
            );
        }

        #[tokio::test]
        async fn changing_schema_invalidates_outdated_operations() {
            let schema = Arc::new(RwLock::new(
                Schema::parse(
                    "type Query { data: String, something: String }",
                    "schema.graphql",
                )
                .unwrap()
                .validate()
                .unwrap(),
            ));

            let running = test_running(schema.clone());

            let operations = vec![
                RawOperation::from((
                    "query Valid { data }".to_string(),
                    Some("valid.graphql".to_string()),
                )),
                RawOperation::from((
                    "query WillBeStale { something }".to_string(),
                    Some("invalid.graphql".to_string()),
                )),
            ];

            running.update_operations(operations).await;

            let new_schema = Schema::parse("type Query { data: String }", "schema.graphql")
                .unwrap()
                .validate()
                .unwrap();
            running.update_schema(new_schema.clone()).await;

            assert_eq!(*schema.read().await, new_schema);
        }
    }

    mod list_resources {
        use rstest::rstest;

        use crate::apps::app::{AppResource, AppResourceSource};

        use super::*;

        #[tokio::test]
        async fn resource_list_includes_app_resources() {
            let mut extensions = Extensions::new();
            let request = axum::http::Request::builder()
                .uri("http://localhost?app=MyApp")
                .body(())
                .unwrap();
            let (parts, _) = request.into_parts();
            extensions.insert(parts);

            let resources = running_with_apps(
                AppResource::Single(AppResourceSource::Local("abcdef".to_string())),
                None,
                None,
            )
            .list_resources_impl(&extensions, None)
            .unwrap()
            .resources;

            assert_eq!(resources.len(), 1);
            assert_eq!(resources[0].uri, RESOURCE_URI);
        }

        #[rstest]
        #[case::modern(ProtocolVersion::V_2026_07_28)]
        #[case::legacy(ProtocolVersion::V_2025_06_18)]
        fn resource_list_cache_hints_gated_by_protocol_version(
            #[case] protocol_version: ProtocolVersion,
        ) {
            let mut running = running_with_apps(
                AppResource::Single(AppResourceSource::Local("abcdef".to_string())),
                None,
                None,
            );
            running.caching.ttl_ms = 60_000;

            let result = running
                .list_resources_impl(&Extensions::new(), Some(&protocol_version))
                .unwrap();

            let expected = if protocol_version == ProtocolVersion::V_2026_07_28 {
                (Some(60_000), Some(rmcp::model::CacheScope::Private))
            } else {
                (None, None)
            };
            assert_eq!((result.ttl_ms, result.cache_scope), expected);
        }

        #[tokio::test]
        async fn resource_list_attaches_mcp_apps_mime_type() {
            let mut extensions = Extensions::new();
            let request = axum::http::Request::builder()
                .uri("http://localhost?app=MyApp")
                .body(())
                .unwrap();
            let (parts, _) = request.into_parts();
            extensions.insert(parts);

            let resources = running_with_apps(
                AppResource::Single(AppResourceSource::Local("abcdef".to_string())),
                None,
                None,
            )
            .list_resources_impl(&extensions, None)
            .unwrap()
            .resources;

            assert_eq!(resources.len(), 1);
            assert_eq!(
                resources[0].mime_type,
                Some("text/html;profile=mcp-app".into())
            );
        }

        #[tokio::test]
        async fn resource_list_empty_without_app_param() {
            let resources = running_with_apps(
                AppResource::Single(AppResourceSource::Local("abcdef".to_string())),
                None,
                None,
            )
            .list_resources_impl(&Extensions::new(), None)
            .unwrap()
            .resources;

            assert!(resources.is_empty());
        }

        #[tokio::test]
        async fn resource_list_with_nonexistent_app() {
            let mut extensions = Extensions::new();
            let request = axum::http::Request::builder()
                .uri("http://localhost?app=NonExistent")
                .body(())
                .unwrap();
            let (parts, _) = request.into_parts();
            extensions.insert(parts);

            let result = running_with_apps(
                AppResource::Single(AppResourceSource::Local("abcdef".to_string())),
                None,
                None,
            )
            .list_resources_impl(&extensions, None);

            assert!(result.is_err());
        }
    }

    mod read_resource {
        use rmcp::model::{ReadResourceRequestParams, ResourceContents};
        use rstest::rstest;

        use crate::apps::{
            app::{AppResource, AppResourceSource},
            manifest::CSPSettings,
        };

        use super::*;

        #[tokio::test]
        async fn getting_resource_from_running() {
            let resource_content = "This is a test resource";
            let running = running_with_apps(
                AppResource::Single(AppResourceSource::Local(resource_content.to_string())),
                None,
                None,
            );
            let mut extensions = Extensions::new();
            let request = axum::http::Request::builder()
                .uri("http://localhost?app=MyApp")
                .body(())
                .unwrap();
            let (parts, _) = request.into_parts();
            extensions.insert(parts);

            let mut resource = running
                .read_resource_impl(
                    ReadResourceRequestParams::new(
                        "http://localhost:4000/resource#a_different_fragment",
                    ),
                    extensions,
                    PeerContext::default(),
                )
                .await
                .unwrap();
            assert_eq!(resource.contents.len(), 1);
            let Some(ResourceContents::TextResourceContents {
                uri,
                mime_type,
                text,
                meta,
            }) = resource.contents.pop()
            else {
                panic!("Expected TextResourceContents");
            };
            assert_eq!(text, resource_content);
            assert_eq!(mime_type.unwrap(), "text/html;profile=mcp-app");
            // Without CSP or widget settings there is no `_meta.ui` to report.
            assert!(meta.is_none());
            assert_eq!(uri, "http://localhost:4000/resource#a_different_fragment");
        }

        #[rstest]
        #[case::modern(ProtocolVersion::V_2026_07_28)]
        #[case::legacy(ProtocolVersion::V_2025_06_18)]
        #[tokio::test]
        async fn read_resource_cache_hints_gated_by_protocol_version(
            #[case] protocol_version: ProtocolVersion,
        ) {
            let mut running = running_with_apps(
                AppResource::Single(AppResourceSource::Local("abcdef".to_string())),
                None,
                None,
            );
            running.caching.ttl_ms = 60_000;
            let mut extensions = Extensions::new();
            let request = axum::http::Request::builder()
                .uri("http://localhost?app=MyApp")
                .body(())
                .unwrap();
            let (parts, _) = request.into_parts();
            extensions.insert(parts);

            let result = running
                .read_resource_impl(
                    ReadResourceRequestParams::new(
                        "http://localhost:4000/resource#a_different_fragment",
                    ),
                    extensions,
                    PeerContext::with_protocol_version(&protocol_version),
                )
                .await
                .unwrap();

            let expected = if protocol_version == ProtocolVersion::V_2026_07_28 {
                (Some(60_000), Some(rmcp::model::CacheScope::Private))
            } else {
                (None, None)
            };
            assert_eq!((result.ttl_ms, result.cache_scope), expected);
        }

        #[tokio::test]
        async fn getting_resource_that_does_not_exist() {
            let running = running_with_apps(
                AppResource::Single(AppResourceSource::Local("abcdef".to_string())),
                None,
                None,
            );
            let mut extensions = Extensions::new();
            let request = axum::http::Request::builder()
                .uri("http://localhost?app=MyApp")
                .body(())
                .unwrap();
            let (parts, _) = request.into_parts();
            extensions.insert(parts);

            let result = running
                .read_resource_impl(
                    ReadResourceRequestParams::new("http://localhost:4000/invalid_resource"),
                    extensions,
                    PeerContext::default(),
                )
                .await;
            assert!(result.is_err());
        }

        #[tokio::test]
        async fn getting_resource_from_running_with_invalid_uri() {
            let running = running_with_apps(
                AppResource::Single(AppResourceSource::Local("abcdef".to_string())),
                None,
                None,
            );
            let mut extensions = Extensions::new();
            let request = axum::http::Request::builder()
                .uri("http://localhost?app=MyApp")
                .body(())
                .unwrap();
            let (parts, _) = request.into_parts();
            extensions.insert(parts);

            let result = running
                .read_resource_impl(
                    ReadResourceRequestParams::new("not a uri"),
                    extensions,
                    PeerContext::default(),
                )
                .await;
            assert!(result.is_err());
        }

        #[tokio::test]
        async fn read_resource_without_app_param_returns_error() {
            let running = running_with_apps(
                AppResource::Single(AppResourceSource::Local("abcdef".to_string())),
                None,
                None,
            );
            let result = running
                .read_resource_impl(
                    ReadResourceRequestParams::new("http://localhost:4000/resource"),
                    Extensions::new(),
                    PeerContext::default(),
                )
                .await;
            assert!(result.is_err());
        }

        #[tokio::test]
        async fn read_resource_with_wrong_app_param_returns_error() {
            let running = running_with_apps(
                AppResource::Single(AppResourceSource::Local("abcdef".to_string())),
                None,
                None,
            );
            let mut extensions = Extensions::new();
            let request = axum::http::Request::builder()
                .uri("http://localhost?app=NonExistent")
                .body(())
                .unwrap();
            let (parts, _) = request.into_parts();
            extensions.insert(parts);

            let result = running
                .read_resource_impl(
                    ReadResourceRequestParams::new("http://localhost:4000/resource"),
                    extensions,
                    PeerContext::default(),
                )
                .await;
            assert!(result.is_err());
        }

        #[rstest]
        #[case::legacy_server(ProtocolVersion::V_2025_11_25, (None, None))]
        #[case::modern_server(
            ProtocolVersion::V_2026_07_28,
            (Some(0), Some(CacheScope::Private))
        )]
        #[tokio::test]
        async fn fetch_remote_resource_downloads_content_with_protocol_cache_hints(
            #[case] server_max: ProtocolVersion,
            #[case] expected_hints: (Option<u64>, Option<CacheScope>),
        ) {
            let mut server = mockito::Server::new_async().await;
            let body = "<html>remote</html>";
            let mock = server
                .mock("GET", "/widget")
                .with_status(200)
                .with_body(body)
                .expect(1)
                .create_async()
                .await;

            let url = Url::parse(&format!("{}/widget", server.url())).unwrap();
            let running = running_with_apps(
                AppResource::Single(AppResourceSource::Remote(url)),
                None,
                None,
            );

            let mut extensions = Extensions::new();
            let request = axum::http::Request::builder()
                .uri("http://localhost?app=MyApp")
                .body(())
                .unwrap();
            let (parts, _) = request.into_parts();
            extensions.insert(parts);

            let mut resource = running
                .read_resource_with_protocol_max(
                    ReadResourceRequestParams::new(RESOURCE_URI),
                    extensions,
                    PeerContext::with_protocol_version(&ProtocolVersion::V_2026_07_28),
                    &server_max,
                )
                .await
                .expect("resource fetch failed");

            mock.assert();
            assert_eq!((resource.ttl_ms, resource.cache_scope), expected_hints);
            let Some(ResourceContents::TextResourceContents { text, .. }) = resource.contents.pop()
            else {
                panic!("unexpected resource contents");
            };
            assert_eq!(text, body);
        }

        #[tokio::test]
        async fn csp_settings() {
            let resource_content = "This is a test resource";
            let connect_domains = vec!["connect.example.com".to_string()];
            let resource_domains = vec!["resource.example.com".to_string()];
            let frame_domains = vec!["frame.example.com".to_string()];
            let redirect_domains = vec!["redirect.example.com".to_string()];
            let base_uri_domains = vec!["base_uri.example.com".to_string()];
            let running = running_with_apps(
                AppResource::Single(AppResourceSource::Local(resource_content.to_string())),
                Some(CSPSettings {
                    connect_domains: Some(connect_domains.clone()),
                    resource_domains: Some(resource_domains.clone()),
                    frame_domains: Some(frame_domains.clone()),
                    redirect_domains: Some(redirect_domains.clone()),
                    base_uri_domains: Some(base_uri_domains.clone()),
                }),
                None,
            );
            let mut extensions = Extensions::new();
            let request = axum::http::Request::builder()
                .uri("http://localhost?app=MyApp")
                .body(())
                .unwrap();
            let (parts, _) = request.into_parts();
            extensions.insert(parts);

            let mut resource = running
                .read_resource_impl(
                    ReadResourceRequestParams::new("http://localhost:4000/resource"),
                    extensions,
                    PeerContext::default(),
                )
                .await
                .unwrap();
            assert_eq!(resource.contents.len(), 1);
            let Some(ResourceContents::TextResourceContents { meta, .. }) = resource.contents.pop()
            else {
                panic!("Expected TextResourceContents");
            };
            let meta = meta.expect("meta is not set");
            // OpenAI-specific CSP at root level should only contain redirect_domains
            let openai_csp = meta
                .get("openai/widgetCSP")
                .expect("openai csp settings not found");
            let returned_redirect_domains = openai_csp
                .get("redirect_domains")
                .unwrap()
                .as_array()
                .unwrap();
            assert_eq!(returned_redirect_domains, &redirect_domains);
            // Common CSP properties are under ui.csp with camelCase keys
            let ui_meta = meta.get("ui").expect("ui key not found");
            let csp_settings = ui_meta.get("csp").expect("csp settings not found");
            let returned_connect_domains = csp_settings
                .get("connectDomains")
                .unwrap()
                .as_array()
                .unwrap();
            assert_eq!(returned_connect_domains, &connect_domains);
            let returned_resource_domains = csp_settings
                .get("resourceDomains")
                .unwrap()
                .as_array()
                .unwrap();
            assert_eq!(returned_resource_domains, &resource_domains);
            let returned_frame_domains = csp_settings
                .get("frameDomains")
                .unwrap()
                .as_array()
                .unwrap();
            assert_eq!(returned_frame_domains, &frame_domains);
            let returned_base_uri_domains = csp_settings
                .get("baseUriDomains")
                .unwrap()
                .as_array()
                .unwrap();
            assert_eq!(returned_base_uri_domains, &base_uri_domains);
        }

        #[tokio::test]
        async fn widget_settings_description_is_set_in_meta() {
            let resource_content = "This is a test resource";
            let running = running_with_apps(
                AppResource::Single(AppResourceSource::Local(resource_content.to_string())),
                None,
                Some(WidgetSettings {
                    description: Some("A custom description".to_string()),
                    domain: None,
                    prefers_border: None,
                }),
            );
            let mut extensions = Extensions::new();
            let request = axum::http::Request::builder()
                .uri("http://localhost?app=MyApp")
                .body(())
                .unwrap();
            let (parts, _) = request.into_parts();
            extensions.insert(parts);

            let mut resource = running
                .read_resource_impl(
                    ReadResourceRequestParams::new("http://localhost:4000/resource"),
                    extensions,
                    PeerContext::default(),
                )
                .await
                .unwrap();
            let Some(ResourceContents::TextResourceContents { meta, .. }) = resource.contents.pop()
            else {
                panic!("Expected TextResourceContents");
            };
            let meta = meta.expect("meta should be set");
            let description = meta
                .get("openai/widgetDescription")
                .expect("widgetDescription not found");
            assert_eq!(description.as_str().unwrap(), "A custom description");
        }

        #[tokio::test]
        async fn widget_settings_domain_is_set_in_meta() {
            let resource_content = "This is a test resource";
            let running = running_with_apps(
                AppResource::Single(AppResourceSource::Local(resource_content.to_string())),
                None,
                Some(WidgetSettings {
                    description: None,
                    domain: Some("example.com".to_string()),
                    prefers_border: None,
                }),
            );
            let mut extensions = Extensions::new();
            let request = axum::http::Request::builder()
                .uri("http://localhost?app=MyApp")
                .body(())
                .unwrap();
            let (parts, _) = request.into_parts();
            extensions.insert(parts);

            let mut resource = running
                .read_resource_impl(
                    ReadResourceRequestParams::new("http://localhost:4000/resource"),
                    extensions,
                    PeerContext::default(),
                )
                .await
                .unwrap();
            let Some(ResourceContents::TextResourceContents { meta, .. }) = resource.contents.pop()
            else {
                panic!("Expected TextResourceContents");
            };
            let meta = meta.expect("meta should be set");
            let ui_meta = meta.get("ui").expect("ui key not found");
            let domain = ui_meta.get("domain").expect("domain not found");
            assert_eq!(domain.as_str().unwrap(), "example.com");
        }

        #[tokio::test]
        async fn widget_settings_prefers_border_is_set_in_meta() {
            let resource_content = "This is a test resource";
            let running = running_with_apps(
                AppResource::Single(AppResourceSource::Local(resource_content.to_string())),
                None,
                Some(WidgetSettings {
                    description: None,
                    domain: None,
                    prefers_border: Some(true),
                }),
            );
            let mut extensions = Extensions::new();
            let request = axum::http::Request::builder()
                .uri("http://localhost?app=MyApp")
                .body(())
                .unwrap();
            let (parts, _) = request.into_parts();
            extensions.insert(parts);

            let mut resource = running
                .read_resource_impl(
                    ReadResourceRequestParams::new("http://localhost:4000/resource"),
                    extensions,
                    PeerContext::default(),
                )
                .await
                .unwrap();
            let Some(ResourceContents::TextResourceContents { meta, .. }) = resource.contents.pop()
            else {
                panic!("Expected TextResourceContents");
            };
            let meta = meta.expect("meta should be set");
            let ui_meta = meta.get("ui").expect("ui key not found");
            let prefers_border = ui_meta
                .get("prefersBorder")
                .expect("prefersBorder not found");
            assert!(prefers_border.as_bool().unwrap());
        }

        #[tokio::test]
        async fn read_resource_impl_returns_mcp_format_when_target_is_mcp() {
            let running = running_with_apps(
                AppResource::Single(AppResourceSource::Local("test content".to_string())),
                Some(CSPSettings {
                    connect_domains: Some(vec!["connect.example.com".to_string()]),
                    resource_domains: Some(vec!["resource.example.com".to_string()]),
                    frame_domains: Some(vec!["frame.example.com".to_string()]),
                    redirect_domains: Some(vec!["redirect.example.com".to_string()]),
                    base_uri_domains: Some(vec!["base.example.com".to_string()]),
                }),
                Some(WidgetSettings {
                    description: Some("Test description".to_string()),
                    domain: Some("example.com".to_string()),
                    prefers_border: Some(true),
                }),
            );

            let mut extensions = Extensions::new();
            let request = axum::http::Request::builder()
                .uri("http://localhost?app=MyApp&appTarget=mcp")
                .body(())
                .unwrap();
            let (parts, _) = request.into_parts();
            extensions.insert(parts);

            let mut resource = running
                .read_resource_impl(
                    ReadResourceRequestParams::new("http://localhost:4000/resource"),
                    extensions,
                    PeerContext::default(),
                )
                .await
                .unwrap();

            let Some(ResourceContents::TextResourceContents {
                mime_type, meta, ..
            }) = resource.contents.pop()
            else {
                panic!("Expected TextResourceContents");
            };
            assert_eq!(mime_type.unwrap(), "text/html;profile=mcp-app");

            let meta = meta.expect("meta should be set");
            // MCPApps should have ui nesting
            let ui_meta = meta.get("ui").expect("ui key should be set");
            // MCPApps CSP uses camelCase keys and includes baseUriDomains (not redirectDomains)
            let csp = ui_meta.get("csp").expect("CSP should be set");
            assert!(csp.get("connectDomains").is_some());
            assert!(csp.get("resourceDomains").is_some());
            assert!(csp.get("frameDomains").is_some());
            assert!(csp.get("baseUriDomains").is_some());
            assert!(csp.get("redirectDomains").is_none());
            assert!(ui_meta.get("domain").is_some());
            assert!(ui_meta.get("prefersBorder").is_some());
            // MCPApps should not have description
            assert!(ui_meta.get("description").is_none());
        }

        #[tokio::test]
        async fn read_resource_impl_returns_error_for_invalid_app_target() {
            let running = running_with_apps(
                AppResource::Single(AppResourceSource::Local("test content".to_string())),
                None,
                None,
            );

            let mut extensions = Extensions::new();
            let request = axum::http::Request::builder()
                .uri("http://localhost?app=MyApp&appTarget=invalid")
                .body(())
                .unwrap();
            let (parts, _) = request.into_parts();
            extensions.insert(parts);

            let result = running
                .read_resource_impl(
                    ReadResourceRequestParams::new("http://localhost:4000/resource"),
                    extensions,
                    PeerContext::default(),
                )
                .await;

            assert!(result.is_err());
        }
    }

    mod list_tools {
        use rstest::rstest;

        use crate::apps::app::{AppResource, AppResourceSource};

        use super::*;

        #[rstest::rstest]
        #[case::normal("/mcp", false)]
        #[case::app("/mcp?app=MyApp", true)]
        #[tokio::test]
        async fn tool_order_is_stable_across_calls_and_reloads(
            #[case] uri: &str,
            #[case] app_mode: bool,
        ) {
            use crate::server::states::running::integration_tests::stateless_request_at_uri;
            use serde_json::json;

            let mut running = running_with_builtin_tools();
            running.apps = running_with_apps(
                AppResource::Single(AppResourceSource::Local("test".to_owned())),
                None,
                None,
            )
            .apps;
            let operations = |names: &[&str]| {
                names
                    .iter()
                    .map(|name| (format!("query {name} {{ id }}"), None).into())
                    .collect()
            };
            running
                .update_operations(operations(&["alpha", "Zulu", "Alpha"]))
                .await;
            let mut expected = vec!["Alpha", "Zulu", "alpha", EXECUTE_TOOL_NAME];
            if app_mode {
                expected.push("GetId");
            } else {
                expected.extend([
                    INTROSPECT_TOOL_NAME,
                    SEARCH_TOOL_NAME,
                    EXPLORER_TOOL_NAME,
                    VALIDATE_TOOL_NAME,
                ]);
            }

            async fn assert_order(running: &Running, uri: &str, expected: &[&str]) {
                for _ in 0..3 {
                    let response = stateless_request_at_uri(
                        running.clone(),
                        "2025-11-25",
                        "tools/list",
                        json!({}),
                        uri,
                    )
                    .await;
                    let names: Vec<_> = response["result"]["tools"]
                        .as_array()
                        .expect("tools/list must return tools")
                        .iter()
                        .map(|tool| tool["name"].as_str().unwrap())
                        .collect();
                    assert_eq!(names, expected);
                }
            }

            assert_order(&running, uri, &expected).await;

            let schema = Schema::parse_and_validate(
                "type Query { id: Int, added: String }",
                "reloaded.graphql",
            )
            .unwrap();
            running.update_schema(schema.clone()).await;
            assert_eq!(*running.schema.read().await, schema);
            assert_order(&running, uri, &expected).await;

            running
                .update_operations(operations(&["Zulu", "Alpha", "alpha"]))
                .await;
            assert_order(&running, uri, &expected).await;
        }

        #[tokio::test]
        async fn list_tools_without_app_parameter() {
            let running = running_with_apps(
                AppResource::Single(AppResourceSource::Local("test".to_string())),
                None,
                None,
            );

            let result = running
                .list_tools_impl(Extensions::new(), PeerContext::default())
                .await
                .unwrap();

            assert_eq!(result.tools.len(), 0);
            assert_eq!(result.next_cursor, None);
        }

        #[rstest]
        #[case::modern(ProtocolVersion::V_2026_07_28)]
        #[case::legacy(ProtocolVersion::V_2025_06_18)]
        #[tokio::test]
        async fn list_tools_cache_hints_gated_by_protocol_version(
            #[case] protocol_version: ProtocolVersion,
        ) {
            let mut running = running_with_apps(
                AppResource::Single(AppResourceSource::Local("test".to_string())),
                None,
                None,
            );
            running.caching.ttl_ms = 60_000;

            let result = running
                .list_tools_impl(
                    Extensions::new(),
                    PeerContext::with_protocol_version(&protocol_version),
                )
                .await
                .unwrap();

            let expected = if protocol_version == ProtocolVersion::V_2026_07_28 {
                (Some(60_000), Some(rmcp::model::CacheScope::Private))
            } else {
                (None, None)
            };
            assert_eq!((result.ttl_ms, result.cache_scope), expected);
        }

        fn running_with_builtin_tools() -> Running {
            let schema = Schema::parse("type Query { id: String }", "schema.graphql")
                .unwrap()
                .validate()
                .unwrap();
            let schema = Arc::new(RwLock::new(schema));
            let mut running = test_running(schema.clone());
            running.execute_tool = Some(Execute::new(MutationMode::None, None));
            running.introspect_tool = Some(Introspect::new(
                schema.clone(),
                Some("Query".to_string()),
                None,
                false,
                None,
            ));
            running.validate_tool = Some(Validate::new(schema.clone(), None));
            running.search_tool = Some(
                Search::new(schema, false, 1, 15_000_000, false, None)
                    .expect("search tool should index"),
            );
            running.explorer_tool = Some(Explorer::new("mcp-example@mcp".to_string()));
            running
        }

        // Per-tool unit tests pin the hint policy; this one proves the listing path keeps it.
        // Only `execute` is open-world, because only `execute` calls the GraphQL endpoint.
        #[tokio::test]
        #[rstest]
        #[case::introspect(INTROSPECT_TOOL_NAME, false)]
        #[case::search(SEARCH_TOOL_NAME, false)]
        #[case::validate(VALIDATE_TOOL_NAME, false)]
        #[case::explorer(EXPLORER_TOOL_NAME, false)]
        #[case::execute(EXECUTE_TOOL_NAME, true)]
        async fn builtin_tools_expose_annotations_in_tools_list(
            #[case] tool_name: &str,
            #[case] open_world: bool,
        ) {
            let running = running_with_builtin_tools();

            let result = running
                .list_tools_impl(Extensions::new(), PeerContext::default())
                .await
                .unwrap();

            let annotations = result
                .tools
                .iter()
                .find(|tool| tool.name == tool_name)
                .and_then(|tool| tool.annotations.clone())
                .unwrap_or_else(|| {
                    panic!("{tool_name} should appear in tools/list with annotations")
                });
            assert_eq!(
                (
                    annotations.read_only_hint,
                    annotations.destructive_hint,
                    annotations.idempotent_hint,
                    annotations.open_world_hint,
                ),
                (Some(true), Some(false), Some(true), Some(open_world))
            );
        }

        #[tokio::test]
        async fn list_tools_with_valid_app_parameter() {
            let running = running_with_apps(
                AppResource::Single(AppResourceSource::Local("test".to_string())),
                None,
                None,
            );

            let mut extensions = Extensions::new();
            let request = axum::http::Request::builder()
                .uri("http://localhost?app=MyApp")
                .body(())
                .unwrap();
            let (parts, _) = request.into_parts();
            extensions.insert(parts);

            let result = running
                .list_tools_impl(extensions, PeerContext::default())
                .await
                .unwrap();

            assert_eq!(result.tools.len(), 1);
            assert_eq!(result.tools[0].name, "GetId");
            assert_eq!(result.next_cursor, None);
        }

        #[tokio::test]
        async fn list_tools_with_nonexistent_app_parameter() {
            let running = running_with_apps(
                AppResource::Single(AppResourceSource::Local("test".to_string())),
                None,
                None,
            );

            let mut extensions = Extensions::new();
            let request = axum::http::Request::builder()
                .uri("http://localhost?app=NonExistent")
                .body(())
                .unwrap();
            let (parts, _) = request.into_parts();
            extensions.insert(parts);

            let result = running
                .list_tools_impl(extensions, PeerContext::default())
                .await;

            assert!(result.is_err());
        }

        #[tokio::test]
        async fn list_tools_with_app_and_openai_target_has_correct_metadata() {
            let running = running_with_apps(
                AppResource::Single(AppResourceSource::Local("test".to_string())),
                None,
                None,
            );

            let mut extensions = Extensions::new();
            let request = axum::http::Request::builder()
                .uri("http://localhost?app=MyApp&appTarget=openai")
                .body(())
                .unwrap();
            let (parts, _) = request.into_parts();
            extensions.insert(parts);

            let result = running
                .list_tools_impl(extensions, PeerContext::default())
                .await
                .unwrap();
            let meta = result.tools[0].meta.as_ref().unwrap();

            // Should have ui nested metadata with resourceUri and visibility
            let ui = meta.get("ui").unwrap().as_object().unwrap();
            assert_eq!(ui.get("resourceUri").unwrap(), RESOURCE_URI);
            assert_eq!(
                ui.get("visibility").unwrap(),
                &serde_json::json!(["model", "app"])
            );
            // Should have deprecated root-level ui/resourceUri
            assert_eq!(meta.get("ui/resourceUri").unwrap(), RESOURCE_URI);
        }

        #[tokio::test]
        async fn list_tools_with_app_and_mcp_target_has_correct_metadata() {
            let running = running_with_apps(
                AppResource::Single(AppResourceSource::Local("test".to_string())),
                None,
                None,
            );

            let mut extensions = Extensions::new();
            let request = axum::http::Request::builder()
                .uri("http://localhost?app=MyApp&appTarget=mcp")
                .body(())
                .unwrap();
            let (parts, _) = request.into_parts();
            extensions.insert(parts);

            let result = running
                .list_tools_impl(extensions, PeerContext::default())
                .await
                .unwrap();
            let meta = result.tools[0].meta.as_ref().unwrap();

            // Check nested ui metadata
            let ui = meta.get("ui").unwrap().as_object().unwrap();
            assert_eq!(ui.get("resourceUri").unwrap(), RESOURCE_URI);
            assert_eq!(
                ui.get("visibility").unwrap(),
                &serde_json::json!(["model", "app"])
            );

            // Check deprecated root-level ui/resourceUri for backwards compatibility
            assert_eq!(meta.get("ui/resourceUri").unwrap(), RESOURCE_URI);

            // Ensure OpenAI-specific keys are NOT present
            assert!(meta.get("openai/outputTemplate").is_none());
            assert!(meta.get("openai/widgetAccessible").is_none());
        }

        #[tokio::test]
        async fn list_tools_with_app_defaults_to_openai_target() {
            let running = running_with_apps(
                AppResource::Single(AppResourceSource::Local("test".to_string())),
                None,
                None,
            );

            let mut extensions = Extensions::new();
            let request = axum::http::Request::builder()
                .uri("http://localhost?app=MyApp")
                .body(())
                .unwrap();
            let (parts, _) = request.into_parts();
            extensions.insert(parts);

            let result = running
                .list_tools_impl(extensions, PeerContext::default())
                .await
                .unwrap();
            let meta = result.tools[0].meta.as_ref().unwrap();

            // Default should still have ui nested metadata
            let ui = meta.get("ui").unwrap().as_object().unwrap();
            assert_eq!(ui.get("resourceUri").unwrap(), RESOURCE_URI);
            assert_eq!(
                ui.get("visibility").unwrap(),
                &serde_json::json!(["model", "app"])
            );
            assert_eq!(meta.get("ui/resourceUri").unwrap(), RESOURCE_URI);
        }

        #[tokio::test]
        async fn list_tools_with_app_and_mcp_app_capability_defaults_to_mcp_target() {
            let running = running_with_apps(
                AppResource::Single(AppResourceSource::Local("test".to_string())),
                None,
                None,
            );

            let mut extensions = Extensions::new();
            let request = axum::http::Request::builder()
                .uri("http://localhost?app=MyApp")
                .body(())
                .unwrap();
            let (parts, _) = request.into_parts();
            extensions.insert(parts);

            let mut extension_capabilities = std::collections::BTreeMap::new();
            extension_capabilities.insert(
                "io.modelcontextprotocol/ui".to_string(),
                serde_json::json!({"mimeTypes": ["text/html;profile=mcp-app"]})
                    .as_object()
                    .unwrap()
                    .clone(),
            );
            let mut client_capabilities = ClientCapabilities::default();
            client_capabilities.extensions = Some(extension_capabilities);

            let result = running
                .list_tools_impl(
                    extensions,
                    PeerContext::with_client_capabilities(&client_capabilities),
                )
                .await
                .unwrap();
            let meta = result.tools[0].meta.as_ref().unwrap();

            // Should have MCP-style nested ui metadata
            let ui = meta.get("ui").unwrap().as_object().unwrap();
            assert_eq!(ui.get("resourceUri").unwrap(), RESOURCE_URI);
            assert_eq!(
                ui.get("visibility").unwrap(),
                &serde_json::json!(["model", "app"])
            );

            // Check deprecated root-level ui/resourceUri for backwards compatibility
            assert_eq!(meta.get("ui/resourceUri").unwrap(), RESOURCE_URI);

            // Ensure OpenAI-specific keys are NOT present
            assert!(meta.get("openai/outputTemplate").is_none());
            assert!(meta.get("openai/widgetAccessible").is_none());
        }

        #[tokio::test]
        async fn list_tools_with_invalid_app_target_returns_error() {
            let running = running_with_apps(
                AppResource::Single(AppResourceSource::Local("test".to_string())),
                None,
                None,
            );

            let mut extensions = Extensions::new();
            let request = axum::http::Request::builder()
                .uri("http://localhost?app=MyApp&appTarget=invalid")
                .body(())
                .unwrap();
            let (parts, _) = request.into_parts();
            extensions.insert(parts);

            let result = running
                .list_tools_impl(extensions, PeerContext::default())
                .await;

            assert!(result.is_err());
        }

        #[tokio::test]
        async fn excludes_output_schema_when_protocol_predates_it() {
            let schema =
                apollo_compiler::Schema::parse_and_validate("type Query { hello: String }", "test")
                    .unwrap();

            let raw_op: RawOperation = ("query Hello { hello }".to_string(), None).into();
            let operation = raw_op
                .into_operation(
                    &schema,
                    None,
                    MutationMode::None,
                    false,
                    false,
                    true,
                    &HashMap::new(),
                    &HashMap::new(),
                    &HashMap::new(),
                )
                .unwrap()
                .expect("operation should be valid");

            let running = Running {
                operations: Arc::new(RwLock::new(vec![operation])),
                enable_output_schema: true,
                ..test_running(Arc::new(RwLock::new(schema)))
            };

            let result = running
                .list_tools_impl(
                    Extensions::new(),
                    PeerContext::with_protocol_version(&ProtocolVersion::V_2025_03_26),
                )
                .await
                .unwrap();

            assert!(!result.tools.is_empty());
            for tool in &result.tools {
                assert!(
                    tool.output_schema.is_none(),
                    "tool '{}' should not have output_schema with default protocol version",
                    tool.name
                );
            }
        }

        #[tokio::test]
        async fn includes_output_schema_when_protocol_supports_it() {
            let schema =
                apollo_compiler::Schema::parse_and_validate("type Query { hello: String }", "test")
                    .unwrap();

            let raw_op: RawOperation = ("query Hello { hello }".to_string(), None).into();
            let operation = raw_op
                .into_operation(
                    &schema,
                    None,
                    MutationMode::None,
                    false,
                    false,
                    true,
                    &HashMap::new(),
                    &HashMap::new(),
                    &HashMap::new(),
                )
                .unwrap()
                .expect("operation should be valid");

            let running = Running {
                operations: Arc::new(RwLock::new(vec![operation])),
                enable_output_schema: true,
                ..test_running(Arc::new(RwLock::new(schema)))
            };

            let result = running
                .list_tools_impl(
                    Extensions::new(),
                    PeerContext::with_protocol_version(&ProtocolVersion::V_2025_06_18),
                )
                .await
                .unwrap();

            assert!(!result.tools.is_empty());
            for tool in &result.tools {
                assert!(
                    tool.output_schema.is_some(),
                    "tool '{}' should have output_schema with protocol 2025-06-18",
                    tool.name
                );
            }
        }
    }

    mod get_info {
        use super::*;
        use rstest::rstest;

        #[test]
        fn get_info_should_use_default_metadata_when_config_is_empty() {
            let schema = Schema::parse("type Query { id: String }", "schema.graphql")
                .unwrap()
                .validate()
                .unwrap();

            let running = test_running(Arc::new(RwLock::new(schema)));

            let info = running.for_service().get_info();

            assert_eq!(info.server_info.name, "Apollo MCP Server");
            assert_eq!(info.server_info.version, env!("CARGO_PKG_VERSION"));
            assert_eq!(
                info.server_info.title,
                Some("Apollo MCP Server".to_string())
            );
            assert_eq!(
                info.server_info.website_url,
                Some("https://www.apollographql.com/docs/apollo-mcp-server".to_string())
            );
            assert_eq!(
                info.server_info.description,
                Some(
                    "A Model Context Protocol (MCP) server for exposing GraphQL APIs as tools."
                        .to_string()
                )
            );
            assert_eq!(info.server_info.icons, None);
            assert_eq!(info.instructions, None);
        }

        #[test]
        fn get_info_includes_instructions_when_configured() {
            let schema = Schema::parse("type Query { id: String }", "schema.graphql")
                .unwrap()
                .validate()
                .unwrap();

            let running = Running {
                instructions: Some("Prefer search before list.".to_string()),
                ..test_running(Arc::new(RwLock::new(schema)))
            };

            let info = running.for_service().get_info();
            assert_eq!(
                info.instructions.as_deref(),
                Some("Prefer search before list.")
            );
        }

        #[test]
        fn get_info_should_use_custom_metadata_when_config_provided() {
            let schema = Schema::parse("type Query { id: String }", "schema.graphql")
                .unwrap()
                .validate()
                .unwrap();

            let custom_config = ServerInfoConfig {
                name: Some("My Custom Server".to_string()),
                version: Some("3.0.0-beta".to_string()),
                title: Some("Custom GraphQL Server".to_string()),
                website_url: Some("https://my-server.example.com/docs".to_string()),
                description: Some("A custom MCP server for testing".to_string()),
                icons: vec![],
            };

            let running = Running {
                server_info: custom_config,
                ..test_running(Arc::new(RwLock::new(schema)))
            };

            let info = running.for_service().get_info();

            assert_eq!(info.server_info.name, "My Custom Server");
            assert_eq!(info.server_info.version, "3.0.0-beta");
            assert_eq!(
                info.server_info.title,
                Some("Custom GraphQL Server".to_string())
            );
            assert_eq!(
                info.server_info.website_url,
                Some("https://my-server.example.com/docs".to_string())
            );
            assert_eq!(
                info.server_info.description,
                Some("A custom MCP server for testing".to_string())
            );
        }

        #[rstest]
        #[case::output_schema_disabled(false)]
        #[case::output_schema_enabled(true)]
        fn advertises_max_supported_version_regardless_of_output_schema(
            #[case] enable_output_schema: bool,
        ) {
            let schema = Arc::new(RwLock::new(
                Schema::parse("type Query { id: String }", "schema.graphql")
                    .unwrap()
                    .validate()
                    .unwrap(),
            ));

            // The advertised version no longer depends on `enable_output_schema`;
            // output schema fields are gated separately by the negotiated version.
            let running = Running {
                enable_output_schema,
                ..test_running(Arc::clone(&schema))
            };

            let info = running.for_service().get_info();

            assert_eq!(info.protocol_version, MAX_SUPPORTED_PROTOCOL_VERSION);
        }

        #[test]
        fn get_info_omits_icons_by_default() {
            let schema = Schema::parse("type Query { id: String }", "schema.graphql")
                .unwrap()
                .validate()
                .unwrap();

            let running = test_running(Arc::new(RwLock::new(schema)));

            let info = running.for_service().get_info();

            assert_eq!(info.server_info.icons, None);
        }

        #[test]
        fn get_info_forwards_configured_icons_with_optional_fields() {
            use crate::server_info::{IconConfig, IconThemeConfig};
            use rmcp::model::IconTheme;

            let schema = Schema::parse("type Query { id: String }", "schema.graphql")
                .unwrap()
                .validate()
                .unwrap();

            let server_info = ServerInfoConfig {
                icons: vec![
                    IconConfig {
                        src: "https://example.com/icon.svg".to_string(),
                        mime_type: Some("image/svg+xml".to_string()),
                        sizes: Some(vec!["any".to_string()]),
                        theme: Some(IconThemeConfig::Dark),
                    },
                    IconConfig {
                        src: "https://example.com/icon-48.png".to_string(),
                        mime_type: None,
                        sizes: None,
                        theme: None,
                    },
                ],
                ..Default::default()
            };

            let running = Running {
                server_info,
                ..test_running(Arc::new(RwLock::new(schema)))
            };

            let icons = running
                .for_service()
                .get_info()
                .server_info
                .icons
                .expect("icons should be advertised when configured");

            assert_eq!(icons.len(), 2);
            assert_eq!(icons[0].src, "https://example.com/icon.svg");
            assert_eq!(icons[0].mime_type.as_deref(), Some("image/svg+xml"));
            assert_eq!(icons[0].sizes.as_deref(), Some(&["any".to_string()][..]));
            assert_eq!(icons[0].theme, Some(IconTheme::Dark));
            assert_eq!(icons[1].src, "https://example.com/icon-48.png");
            assert!(icons[1].mime_type.is_none());
            assert!(icons[1].sizes.is_none());
            assert!(icons[1].theme.is_none());
        }
    }

    mod prompts {
        use super::*;
        use rmcp::model::{GetPromptRequestParams, Prompt, PromptArgument, Role};
        use rstest::rstest;

        fn running_with_prompts(prompts: Vec<crate::prompts::PromptFile>) -> Running {
            let schema = Schema::parse("type Query { id: String }", "schema.graphql")
                .unwrap()
                .validate()
                .unwrap();
            Running {
                prompts,
                ..test_running(Arc::new(RwLock::new(schema)))
            }
        }

        #[test]
        fn list_prompts_empty() {
            let running = running_with_prompts(vec![]);
            let result = running.list_prompts_impl(None).unwrap();
            assert!(result.prompts.is_empty());
        }

        #[test]
        fn list_prompts_returns_loaded_prompts() {
            let prompts = vec![crate::prompts::PromptFile {
                prompt: Prompt::new("greeting", Some("A greeting"), None),
                template: "Hello {{name}}!".to_string(),
            }];
            let running = running_with_prompts(prompts);
            let result = running.list_prompts_impl(None).unwrap();
            assert_eq!(result.prompts.len(), 1);
            assert_eq!(result.prompts[0].name, "greeting");
            assert_eq!(result.prompts[0].description.as_deref(), Some("A greeting"));
        }

        #[rstest]
        #[case::modern(ProtocolVersion::V_2026_07_28)]
        #[case::legacy(ProtocolVersion::V_2025_06_18)]
        fn list_prompts_cache_hints_gated_by_protocol_version(
            #[case] protocol_version: ProtocolVersion,
        ) {
            let mut running = running_with_prompts(vec![]);
            running.caching.ttl_ms = 60_000;
            let result = running.list_prompts_impl(Some(&protocol_version)).unwrap();

            let expected = if protocol_version == ProtocolVersion::V_2026_07_28 {
                (Some(60_000), Some(rmcp::model::CacheScope::Private))
            } else {
                (None, None)
            };
            assert_eq!((result.ttl_ms, result.cache_scope), expected);
        }

        #[test]
        fn get_prompt_substitutes_arguments() {
            let prompts = vec![crate::prompts::PromptFile {
                prompt: Prompt::new(
                    "greet",
                    Some("Greet someone"),
                    Some(vec![PromptArgument::new("name").with_required(true)]),
                ),
                template: "Hello {{name}}!".to_string(),
            }];
            let running = running_with_prompts(prompts);
            let mut args = serde_json::Map::new();
            args.insert("name".to_string(), serde_json::json!("Alice"));
            let result = running
                .get_prompt_impl(GetPromptRequestParams::new("greet").with_arguments(args))
                .unwrap();
            assert_eq!(result.messages.len(), 1);
            assert_eq!(result.messages[0].role, Role::User);
            assert!(
                matches!(
                    &result.messages[0].content,
                    rmcp::model::ContentBlock::Text(text) if text.text == "Hello Alice!"
                ),
                "Expected Text content with 'Hello Alice!', got {:?}",
                result.messages[0].content
            );
        }

        #[test]
        fn get_prompt_not_found() {
            let running = running_with_prompts(vec![]);
            let err = running
                .get_prompt_impl(GetPromptRequestParams::new("nonexistent"))
                .unwrap_err();
            assert_eq!(err.code, ErrorCode::INVALID_PARAMS);
            assert!(err.message.contains("not found"));
        }

        #[test]
        fn get_prompt_missing_required_argument() {
            let prompts = vec![crate::prompts::PromptFile {
                prompt: Prompt::new(
                    "greet",
                    None::<String>,
                    Some(vec![PromptArgument::new("name").with_required(true)]),
                ),
                template: "Hello {{name}}!".to_string(),
            }];
            let running = running_with_prompts(prompts);
            let err = running
                .get_prompt_impl(GetPromptRequestParams::new("greet"))
                .unwrap_err();
            assert_eq!(err.code, ErrorCode::INVALID_PARAMS);
            assert!(err.message.contains("Missing required argument"));
        }

        #[test]
        fn get_info_includes_prompts_capability_when_prompts_exist() {
            let prompts = vec![crate::prompts::PromptFile {
                prompt: Prompt::new("test", None::<String>, None),
                template: "test".to_string(),
            }];
            let running = running_with_prompts(prompts);
            let info = running.for_service().get_info();
            assert!(info.capabilities.prompts.is_some());
        }

        #[test]
        fn get_info_no_prompts_capability_when_empty() {
            let running = running_with_prompts(vec![]);
            let info = running.for_service().get_info();
            assert!(info.capabilities.prompts.is_none());
        }
    }

    mod call_tool {
        use super::*;
        use crate::apps::app::{AppResource, AppResourceSource};
        use crate::operations::RawOperation;

        #[tokio::test]
        async fn strips_structured_content_when_protocol_predates_it() {
            let mut server = mockito::Server::new_async().await;
            let mock = server
                .mock("POST", "/")
                .with_body(r#"{"data": {"hello": "world"}}"#)
                .create_async()
                .await;

            let schema =
                apollo_compiler::Schema::parse_and_validate("type Query { hello: String }", "test")
                    .unwrap();

            let raw_op: RawOperation = ("query Hello { hello }".to_string(), None).into();
            let operation = raw_op
                .into_operation(
                    &schema,
                    None,
                    MutationMode::None,
                    false,
                    false,
                    true,
                    &HashMap::new(),
                    &HashMap::new(),
                    &HashMap::new(),
                )
                .unwrap()
                .expect("operation should be valid");

            let running = Running {
                operations: Arc::new(RwLock::new(vec![operation])),
                endpoint: server.url().parse().unwrap(),
                enable_output_schema: true,
                ..test_running(Arc::new(RwLock::new(schema)))
            };

            let mut request = CallToolRequestParams::new("Hello");
            request.arguments = Some(Default::default());

            let result = running
                .call_tool_impl(
                    request,
                    &Extensions::new(),
                    Some(&ProtocolVersion::V_2025_03_26),
                    Some(running.operations.read().await[0].clone()),
                )
                .await
                .unwrap();

            mock.assert();
            assert!(
                result.structured_content.is_none(),
                "structured_content should be stripped with default protocol version"
            );
        }

        #[tokio::test]
        async fn preserves_structured_content_when_protocol_supports_it() {
            let mut server = mockito::Server::new_async().await;
            let mock = server
                .mock("POST", "/")
                .with_body(r#"{"data": {"hello": "world"}}"#)
                .create_async()
                .await;

            let schema =
                apollo_compiler::Schema::parse_and_validate("type Query { hello: String }", "test")
                    .unwrap();

            let raw_op: RawOperation = ("query Hello { hello }".to_string(), None).into();
            let operation = raw_op
                .into_operation(
                    &schema,
                    None,
                    MutationMode::None,
                    false,
                    false,
                    true,
                    &HashMap::new(),
                    &HashMap::new(),
                    &HashMap::new(),
                )
                .unwrap()
                .expect("operation should be valid");

            let running = Running {
                operations: Arc::new(RwLock::new(vec![operation])),
                endpoint: server.url().parse().unwrap(),
                enable_output_schema: true,
                ..test_running(Arc::new(RwLock::new(schema)))
            };

            let mut request = CallToolRequestParams::new("Hello");
            request.arguments = Some(Default::default());

            let result = running
                .call_tool_impl(
                    request,
                    &Extensions::new(),
                    Some(&ProtocolVersion::V_2025_06_18),
                    Some(running.operations.read().await[0].clone()),
                )
                .await
                .unwrap();

            mock.assert();
            assert!(
                result.structured_content.is_some(),
                "structured_content should be preserved with protocol 2025-06-18"
            );
        }

        #[tokio::test]
        async fn calls_app_tool_instead_of_operation_when_app_param_present() {
            let mut server = mockito::Server::new_async().await;

            // Mock for the operation "Hello" — should NOT be called
            let operation_mock = server
                .mock("POST", "/")
                .match_body(mockito::Matcher::Regex(
                    r#".*"operationName"\s*:\s*"Hello".*"#.to_string(),
                ))
                .with_body(r#"{"data": {"hello": "from operation"}}"#)
                .with_header("Content-Type", "application/json")
                .expect(0)
                .create_async()
                .await;

            // Mock for the app tool's operation "AppHello" — should be called
            let app_tool_mock = server
                .mock("POST", "/")
                .match_body(mockito::Matcher::Regex(
                    r#".*"operationName"\s*:\s*"AppHello".*"#.to_string(),
                ))
                .with_body(r#"{"data": {"hello": "from app"}}"#)
                .with_header("Content-Type", "application/json")
                .expect(1)
                .create_async()
                .await;

            let schema =
                apollo_compiler::Schema::parse_and_validate("type Query { hello: String }", "test")
                    .unwrap();

            let operation: RawOperation = ("query Hello { hello }".to_string(), None).into();
            let operation = operation
                .into_operation(
                    &schema,
                    None,
                    MutationMode::None,
                    false,
                    false,
                    true,
                    &HashMap::new(),
                    &HashMap::new(),
                    &HashMap::new(),
                )
                .unwrap()
                .expect("operation should be valid");

            let app_operation: RawOperation = ("query AppHello { hello }".to_string(), None).into();
            let app_operation = app_operation
                .into_operation(
                    &schema,
                    None,
                    MutationMode::None,
                    false,
                    false,
                    true,
                    &HashMap::new(),
                    &HashMap::new(),
                    &HashMap::new(),
                )
                .unwrap()
                .expect("app operation should be valid");

            let app = App {
                name: "MyApp".to_string(),
                description: None,
                resource: AppResource::Single(AppResourceSource::Local("test".to_string())),
                csp_settings: None,
                widget_settings: None,
                uri: "ui://MyApp".parse().unwrap(),
                tools: vec![AppTool {
                    operation: Arc::new(app_operation),
                    labels: AppLabels::default(),
                    tool: Tool::new("Hello", "app tool", JsonObject::new()),
                    extra_outputs: None,
                }],
                prefetch_operations: vec![],
            };

            let running = Running {
                operations: Arc::new(RwLock::new(vec![operation])),
                apps: vec![app],
                endpoint: server.url().parse().unwrap(),
                enable_output_schema: true,
                ..test_running(Arc::new(RwLock::new(schema)))
            };

            let mut extensions = Extensions::new();
            let request = axum::http::Request::builder()
                .uri("http://localhost?app=MyApp")
                .body(())
                .unwrap();
            let (parts, _) = request.into_parts();
            extensions.insert(parts);

            let mut request = CallToolRequestParams::new("Hello");
            request.arguments = Some(Default::default());

            let _result = running
                .call_tool_impl(request, &extensions, None, None)
                .await
                .unwrap();

            app_tool_mock.assert();
            operation_mock.assert();
        }
    }
}

#[cfg(test)]
mod integration_tests {
    use super::*;

    /// Exercise the supported sessionless transport without an initialize handshake.
    async fn stateless_request(
        running: Running,
        version: &str,
        method: &str,
        params: Value,
    ) -> Value {
        stateless_request_at_uri(running, version, method, params, "/mcp").await
    }

    pub(super) async fn stateless_request_at_uri(
        running: Running,
        version: &str,
        method: &str,
        params: Value,
        uri: &str,
    ) -> Value {
        use axum::body::Body;
        use http_body_util::BodyExt as _;
        use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
        use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
        use tower::ServiceExt as _;

        let changes = running.tool_list_changes.clone();
        let service = StreamableHttpService::new(
            move || Ok(running.for_service()),
            Arc::new(LocalSessionManager::default()),
            StreamableHttpServerConfig::default()
                .with_legacy_session_mode(false)
                .with_json_response(true),
        );
        let request = http::Request::builder()
            .method("POST")
            .uri(uri)
            .header("Host", "localhost")
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .header("Mcp-Protocol-Version", version)
            .body(Body::from(
                serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
                    .to_string(),
            ))
            .unwrap();
        let response = service.oneshot(request).await.unwrap();
        assert_eq!(response.status(), http::StatusCode::OK);
        assert!(!response.headers().contains_key("Mcp-Session-Id"));
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        assert_eq!(
            changes.receiver_count(),
            0,
            "sessionless requests must not retain a forwarder"
        );
        serde_json::from_slice(&bytes).unwrap()
    }

    mod output_schema_gating {
        use std::sync::Arc;

        use axum::body::Body;
        use http::{Request, StatusCode};
        use http_body_util::BodyExt;
        use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
        use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
        use serde_json::json;
        use tokio::sync::RwLock;
        use tower::ServiceExt;

        use super::*;
        use crate::operations::RawOperation;

        fn create_running_with_output_schema() -> Running {
            let schema =
                apollo_compiler::Schema::parse_and_validate("type Query { hello: String }", "test")
                    .unwrap();

            let raw_op: RawOperation = ("query Hello { hello }".to_string(), None).into();
            let operation = raw_op
                .into_operation(
                    &schema,
                    None,
                    MutationMode::None,
                    false,
                    false,
                    true,
                    &HashMap::new(),
                    &HashMap::new(),
                    &HashMap::new(),
                )
                .unwrap()
                .expect("operation should be valid");

            Running {
                schema: Arc::new(RwLock::new(schema)),
                operations: Arc::new(RwLock::new(vec![operation])),
                apps: vec![],
                prompts: vec![],
                headers: http::HeaderMap::new(),
                forward_headers: vec![],
                endpoint: url::Url::parse("http://localhost:4000").unwrap(),
                execute_tool: None,
                introspect_tool: None,
                search_tool: None,
                explorer_tool: None,
                validate_tool: None,
                custom_scalar_map: None,
                tool_list_changes: Default::default(),
                cancellation_token: CancellationToken::new(),
                mutation_mode: MutationMode::None,
                disable_type_description: false,
                disable_schema_description: false,
                enable_output_schema: true,
                disable_auth_token_passthrough: false,
                descriptions: HashMap::new(),
                annotations: HashMap::new(),
                param_headers: HashMap::new(),
                health_check: None,
                server_info: Default::default(),
                instructions: None,
                rhai_engine: SharedRhaiEngine::new("rhai"),
                caching: Caching::default(),
                tasks: Default::default(),
            }
        }

        fn create_service(
            running: Running,
            session_manager: Arc<LocalSessionManager>,
        ) -> StreamableHttpService<McpService, LocalSessionManager> {
            StreamableHttpService::new(
                move || Ok(running.for_service()),
                session_manager,
                StreamableHttpServerConfig::default().with_legacy_session_mode(true),
            )
        }

        fn build_initialize_request(protocol_version: &str) -> Request<Body> {
            let body = json!({
                "jsonrpc": "2.0",
                "id": 1,
                "method": "initialize",
                "params": {
                    "protocolVersion": protocol_version,
                    "capabilities": {},
                    "clientInfo": {
                        "name": "test-client",
                        "version": "1.0.0"
                    }
                }
            });
            Request::builder()
                .method("POST")
                .uri("/mcp")
                .header("Host", "localhost:8000")
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .body(Body::from(body.to_string()))
                .unwrap()
        }

        async fn extract_json_body<B>(response: http::Response<B>) -> serde_json::Value
        where
            B: BodyExt,
            B::Error: std::fmt::Debug,
        {
            let bytes = response.into_body().collect().await.unwrap().to_bytes();
            let body_str = String::from_utf8_lossy(&bytes);

            if let Ok(value) = serde_json::from_str(&body_str) {
                return value;
            }

            for line in body_str.lines() {
                if let Some(data) = line.strip_prefix("data: ")
                    && let Ok(val) = serde_json::from_str::<serde_json::Value>(data)
                {
                    return val;
                }
            }
            panic!("no JSON data found in SSE response");
        }

        #[tokio::test]
        async fn list_tools_uses_request_protocol_with_legacy_fallback() {
            let running = create_running_with_output_schema();
            let (server_io, _client_io) = tokio::io::duplex(4096);
            let legacy_info = serde_json::from_value(json!({
                "protocolVersion":"2025-03-26", "capabilities":{}, "clientInfo":{"name":"legacy", "version":"1"}
            })).unwrap();
            let service =
                rmcp::service::serve_directly(running.for_service(), server_io, Some(legacy_info));
            for (version, expected_output_schema) in [
                (None, false),
                (Some(ProtocolVersion::V_2025_06_18), true),
                (None, false),
            ] {
                let mut context =
                    RequestContext::new(rmcp::model::RequestId::Number(1), service.peer().clone());
                if let Some(version) = version {
                    context.meta.set_protocol_version(version);
                }
                let tools = running
                    .for_service()
                    .list_tools(None, context)
                    .await
                    .unwrap();
                assert_eq!(
                    tools.tools[0].output_schema.is_some(),
                    expected_output_schema
                );
            }
            service.cancel().await.unwrap();
        }
        #[tokio::test]
        async fn omits_cache_hints_before_the_fields_were_supported() {
            let mut running = create_running_with_output_schema();
            running.caching.ttl_ms = 60_000;
            let body =
                super::stateless_request(running, "2025-11-25", "tools/list", json!({})).await;
            let result = &body["result"];
            assert!(
                !result["tools"]
                    .as_array()
                    .expect("tools/list should return a tools array")
                    .is_empty()
            );
            assert!(result.get("ttlMs").is_none());
            assert!(result.get("cacheScope").is_none());
        }

        async fn request_tools_with_modern_protocol(
            legacy_session_mode: bool,
            metadata: Option<serde_json::Value>,
        ) -> serde_json::Value {
            let running = create_running_with_output_schema();
            let service = StreamableHttpService::new(
                move || Ok(running.for_service()),
                Arc::new(LocalSessionManager::default()),
                StreamableHttpServerConfig::default().with_legacy_session_mode(legacy_session_mode),
            );
            let mut body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}});
            if let Some(metadata) = metadata {
                body["params"]["_meta"] = metadata;
            }
            let request = Request::builder()
                .method("POST")
                .uri("/mcp")
                .header("Host", "localhost:8000")
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .header("MCP-Protocol-Version", "2026-07-28")
                .header("Mcp-Method", "tools/list")
                .body(Body::from(body.to_string()))
                .unwrap();
            let response = service.oneshot(request).await.unwrap();
            extract_json_body(response).await
        }

        #[rstest::rstest]
        #[tokio::test]
        async fn rejects_stateless_tools_request_without_required_metadata(
            #[values(true, false)] legacy_session_mode: bool,
        ) {
            let body = request_tools_with_modern_protocol(legacy_session_mode, None).await;
            assert_eq!(body["id"], 1);
            assert_eq!(
                body["error"]["code"],
                rmcp::model::ErrorCode::INVALID_PARAMS.0,
                "{body}"
            );
            assert!(body.get("result").is_none());
        }

        #[rstest::rstest]
        #[tokio::test]
        async fn accepts_stateless_tools_request_with_modern_protocol(
            #[values(true, false)] legacy_session_mode: bool,
        ) {
            let metadata = json!({
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {},
                "io.modelcontextprotocol/clientInfo": {"name": "test-client", "version": "1.0.0"}
            });
            let body =
                request_tools_with_modern_protocol(legacy_session_mode, Some(metadata)).await;
            assert_eq!(body["id"], 1);
            assert!(body.get("error").is_none(), "{body}");
            assert_eq!(body["result"]["resultType"], "complete");
            assert_eq!(body["result"]["ttlMs"], 300_000);
            assert_eq!(body["result"]["cacheScope"], "private");
            assert!(!body["result"]["tools"].as_array().unwrap().is_empty());
        }

        #[tokio::test]
        async fn excludes_output_schema_when_protocol_predates_it() {
            let running = create_running_with_output_schema();
            let body =
                super::stateless_request(running, "2025-03-26", "tools/list", json!({})).await;
            let tools = body["result"]["tools"].as_array().unwrap();

            assert!(!tools.is_empty());
            for tool in tools {
                assert!(
                    tool.get("outputSchema").is_none(),
                    "tool '{}' should not have outputSchema with protocol 2025-03-26",
                    tool["name"]
                );
            }
        }

        #[tokio::test]
        async fn includes_output_schema_when_protocol_supports_it() {
            let running = create_running_with_output_schema();
            let body =
                super::stateless_request(running, "2025-06-18", "tools/list", json!({})).await;
            let tools = body["result"]["tools"].as_array().unwrap();

            assert!(!tools.is_empty());
            for tool in tools {
                assert!(
                    tool.get("outputSchema").is_some(),
                    "tool '{}' should have outputSchema with protocol 2025-06-18",
                    tool["name"]
                );
            }
        }

        #[tokio::test]
        async fn negotiates_down_when_client_requests_newer_version() {
            // Regression for AMS-525: a client offering a protocol version newer
            // than any rmcp implements over streamable_http must be downgraded to
            // the newest version with an initialize handshake rather than refused.
            let running = create_running_with_output_schema();
            let session_manager: Arc<LocalSessionManager> = LocalSessionManager::default().into();
            let service = create_service(running, Arc::clone(&session_manager));

            let response = service
                .oneshot(build_initialize_request("2999-01-01"))
                .await
                .unwrap();

            assert_eq!(response.status(), StatusCode::OK);
            let body = extract_json_body(response).await;
            assert_eq!(
                body["result"]["protocolVersion"],
                ProtocolVersion::LATEST_WITH_INITIALIZE.as_str()
            );
        }

        #[tokio::test]
        async fn echoes_supported_version_when_client_requests_older_version() {
            // rmcp negotiates over streamable_http: a client offering a supported
            // version older than our latest gets that version echoed back rather
            // than being upgraded to the latest.
            let running = create_running_with_output_schema();
            let session_manager: Arc<LocalSessionManager> = LocalSessionManager::default().into();
            let service = create_service(running, Arc::clone(&session_manager));

            let response = service
                .oneshot(build_initialize_request("2025-06-18"))
                .await
                .unwrap();

            assert_eq!(response.status(), StatusCode::OK);
            let body = extract_json_body(response).await;
            assert_eq!(body["result"]["protocolVersion"], "2025-06-18");
        }

        #[tokio::test]
        async fn negotiates_protocol_version_over_stdio_transport() {
            // The `stdio` transport drives this same `ServerHandler` through rmcp's
            // generic `serve()` (see `Transport::Stdio` in `starting.rs`), which
            // negotiates the protocol version in its service layer just like
            // `StreamableHttpService`. This regression test proves a stdio client
            // offering a supported older version gets that version echoed back
            // rather than the server's latest, so removing the handler-side
            // negotiation does not silently regress stdio.
            use rmcp::ServiceExt as _;
            use tokio::io::{AsyncBufReadExt as _, AsyncWriteExt as _, BufReader};

            let running = create_running_with_output_schema();

            // In-memory transport standing in for stdio: the server wraps its half
            // and the test drives the client half with newline-delimited JSON-RPC.
            let (server_io, client_io) = tokio::io::duplex(4096);
            let (server_r, server_w) = tokio::io::split(server_io);
            let (client_r, mut client_w) = tokio::io::split(client_io);

            let server = tokio::spawn(async move {
                let service = running
                    .for_service()
                    .serve((server_r, server_w))
                    .await
                    .expect("stdio serve should complete the initialize handshake");
                let _ = service.waiting().await;
            });

            let mut request = json!({
                "jsonrpc": "2.0",
                "id": 1,
                "method": "initialize",
                "params": {
                    "protocolVersion": "2025-03-26",
                    "capabilities": {},
                    "clientInfo": { "name": "test-client", "version": "1.0.0" }
                }
            })
            .to_string();
            request.push('\n');
            client_w.write_all(request.as_bytes()).await.unwrap();

            let mut reader = BufReader::new(client_r);
            let mut response_line = String::new();
            reader.read_line(&mut response_line).await.unwrap();
            let body: serde_json::Value = serde_json::from_str(&response_line).unwrap();
            assert_eq!(body["result"]["protocolVersion"], "2025-03-26");

            // Close the client side so the server task shuts down cleanly.
            drop(reader);
            drop(client_w);
            let _ = server.await;
        }

        #[tokio::test]
        async fn stdio_initialize_falls_back_to_legacy_protocol() {
            // rmcp limits initialize to revisions that support that handshake.
            // Modern clients use discovery and per-request metadata instead.
            use rmcp::ServiceExt as _;
            use tokio::io::{AsyncBufReadExt as _, AsyncWriteExt as _, BufReader};

            let running = create_running_with_output_schema();

            let (server_io, client_io) = tokio::io::duplex(4096);
            let (server_r, server_w) = tokio::io::split(server_io);
            let (client_r, mut client_w) = tokio::io::split(client_io);

            let server = tokio::spawn(async move {
                let service = running
                    .for_service()
                    .serve((server_r, server_w))
                    .await
                    .expect("stdio serve should complete the initialize handshake");
                let _ = service.waiting().await;
            });

            let mut request = json!({
                "jsonrpc": "2.0",
                "id": 1,
                "method": "initialize",
                "params": {
                    "protocolVersion": "2026-07-28",
                    "capabilities": {},
                    "clientInfo": { "name": "test-client", "version": "1.0.0" }
                }
            })
            .to_string();
            request.push('\n');
            client_w.write_all(request.as_bytes()).await.unwrap();

            let mut reader = BufReader::new(client_r);
            let mut response_line = String::new();
            reader.read_line(&mut response_line).await.unwrap();
            let body: serde_json::Value = serde_json::from_str(&response_line).unwrap();
            assert_eq!(
                body["result"]["protocolVersion"],
                ProtocolVersion::LATEST_WITH_INITIALIZE.as_str()
            );

            drop(reader);
            drop(client_w);
            let _ = server.await;
        }

        fn create_stateless_service(
            running: Running,
            session_manager: Arc<LocalSessionManager>,
        ) -> StreamableHttpService<McpService, LocalSessionManager> {
            StreamableHttpService::new(
                move || Ok(running.for_service()),
                session_manager,
                StreamableHttpServerConfig::default().with_legacy_session_mode(false),
            )
        }

        #[tokio::test]
        async fn stateless_echoes_supported_version_when_client_requests_older_version() {
            // Regression for #794: a stateless client requesting a supported
            // older version must get that version echoed back, not the latest.
            let running = create_running_with_output_schema();
            let service = create_stateless_service(running, LocalSessionManager::default().into());

            let response = service
                .oneshot(build_initialize_request("2025-06-18"))
                .await
                .unwrap();

            assert_eq!(response.status(), StatusCode::OK);
            let body = extract_json_body(response).await;
            assert_eq!(body["result"]["protocolVersion"], "2025-06-18");
        }

        #[tokio::test]
        async fn stateless_negotiates_down_when_client_requests_unknown_version() {
            // A client offering a version rmcp doesn't know must fall back to
            // the newest version with an initialize handshake rather than being echoed back.
            let running = create_running_with_output_schema();
            let service = create_stateless_service(running, LocalSessionManager::default().into());

            let response = service
                .oneshot(build_initialize_request("2999-01-01"))
                .await
                .unwrap();

            assert_eq!(response.status(), StatusCode::OK);
            let body = extract_json_body(response).await;
            assert_eq!(
                body["result"]["protocolVersion"],
                ProtocolVersion::LATEST_WITH_INITIALIZE.as_str()
            );
        }

        #[tokio::test]
        async fn stateless_initialize_falls_back_to_legacy_protocol() {
            let running = create_running_with_output_schema();
            let service = create_stateless_service(running, LocalSessionManager::default().into());

            let response = service
                .oneshot(build_initialize_request("2026-07-28"))
                .await
                .unwrap();

            assert_eq!(response.status(), StatusCode::OK);
            let body = extract_json_body(response).await;
            assert_eq!(
                body["result"]["protocolVersion"],
                ProtocolVersion::LATEST_WITH_INITIALIZE.as_str()
            );
        }

        #[tokio::test]
        async fn legacy_session_mode_enabled_initialize_falls_back_to_legacy_protocol() {
            // Enabling legacy sessions does not let initialize negotiate a discovery-only revision.
            let running = create_running_with_output_schema();
            let service = create_service(running, LocalSessionManager::default().into());

            let response = service
                .oneshot(build_initialize_request("2026-07-28"))
                .await
                .unwrap();

            assert_eq!(response.status(), StatusCode::OK);
            let body = extract_json_body(response).await;
            assert_eq!(
                body["result"]["protocolVersion"],
                ProtocolVersion::LATEST_WITH_INITIALIZE.as_str()
            );
        }

        #[test]
        fn rmcp_known_versions_audit() {
            // Canary: fails when an rmcp upgrade changes KNOWN_VERSIONS.
            // When it does, audit the new protocol version(s):
            // - If this server implements the new revision, bump
            //   MAX_SUPPORTED_PROTOCOL_VERSION.
            // - Otherwise, update this list to acknowledge the version
            //   remains capped, and confirm stateful transports (where rmcp
            //   negotiates over our heads) still behave acceptably.
            // - Recheck auth::oauth_validate against rmcp's HTTP
            //   validate_standard_headers: both currently gate on the raw
            //   MCP-Protocol-Version header using string ordering, including
            //   for sessions. Audit non-date identifiers and ordering changes;
            //   keep the full-handshake forged-method regression passing.
            assert_eq!(
                ProtocolVersion::KNOWN_VERSIONS,
                &[
                    ProtocolVersion::V_2024_11_05,
                    ProtocolVersion::V_2025_03_26,
                    ProtocolVersion::V_2025_06_18,
                    ProtocolVersion::V_2025_11_25,
                    ProtocolVersion::V_2026_07_28,
                ],
                "rmcp's KNOWN_VERSIONS changed; audit MAX_SUPPORTED_PROTOCOL_VERSION and auth's raw-header string-ordering gate against rmcp::validate_standard_headers"
            );
        }
    }

    mod structured_content_gating {
        use std::sync::Arc;

        use serde_json::json;
        use tokio::sync::RwLock;

        use super::*;
        use crate::operations::RawOperation;

        fn create_running_with_mock_endpoint(endpoint: url::Url) -> Running {
            let schema =
                apollo_compiler::Schema::parse_and_validate("type Query { hello: String }", "test")
                    .unwrap();

            let raw_op: RawOperation = ("query Hello { hello }".to_string(), None).into();
            let operation = raw_op
                .into_operation(
                    &schema,
                    None,
                    MutationMode::None,
                    false,
                    false,
                    true,
                    &HashMap::new(),
                    &HashMap::new(),
                    &HashMap::new(),
                )
                .unwrap()
                .expect("operation should be valid");

            Running {
                schema: Arc::new(RwLock::new(schema)),
                operations: Arc::new(RwLock::new(vec![operation])),
                apps: vec![],
                prompts: vec![],
                headers: http::HeaderMap::new(),
                forward_headers: vec![],
                endpoint,
                execute_tool: None,
                introspect_tool: None,
                search_tool: None,
                explorer_tool: None,
                validate_tool: None,
                custom_scalar_map: None,
                tool_list_changes: Default::default(),
                cancellation_token: CancellationToken::new(),
                mutation_mode: MutationMode::None,
                disable_type_description: false,
                disable_schema_description: false,
                enable_output_schema: true,
                disable_auth_token_passthrough: false,
                descriptions: HashMap::new(),
                annotations: HashMap::new(),
                param_headers: HashMap::new(),
                health_check: None,
                server_info: Default::default(),
                instructions: None,
                rhai_engine: SharedRhaiEngine::new("rhai"),
                caching: Caching::default(),
                tasks: Default::default(),
            }
        }

        #[tokio::test]
        async fn strips_structured_content_when_protocol_predates_it() {
            let mut server = mockito::Server::new_async().await;
            let mock = server
                .mock("POST", "/")
                .with_body(r#"{"data": {"hello": "world"}}"#)
                .create_async()
                .await;

            let running = create_running_with_mock_endpoint(server.url().parse().unwrap());
            let body = super::stateless_request(
                running,
                "2025-03-26",
                "tools/call",
                json!({"name": "Hello", "arguments": {}}),
            )
            .await;

            mock.assert();
            let result = &body["result"];
            assert!(
                result.get("structuredContent").is_none() || result["structuredContent"].is_null(),
                "structuredContent should be stripped with protocol 2025-03-26"
            );
        }

        #[tokio::test]
        async fn preserves_structured_content_when_protocol_supports_it() {
            let mut server = mockito::Server::new_async().await;
            let mock = server
                .mock("POST", "/")
                .with_body(r#"{"data": {"hello": "world"}}"#)
                .create_async()
                .await;

            let running = create_running_with_mock_endpoint(server.url().parse().unwrap());
            let body = super::stateless_request(
                running,
                "2025-06-18",
                "tools/call",
                json!({"name": "Hello", "arguments": {}}),
            )
            .await;

            mock.assert();
            let result = &body["result"];
            assert!(
                result
                    .get("structuredContent")
                    .is_some_and(|v| !v.is_null()),
                "structuredContent should be preserved with protocol 2025-06-18"
            );
        }
    }

    mod sse_resumability {
        use axum::body::Body;
        use http::{Request, StatusCode};
        use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
        use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
        use serde_json::json;
        use std::sync::Arc;
        use tower::ServiceExt;

        use super::super::test_support::create_test_running;
        use super::*;

        fn create_test_service(
            stateful_mode: bool,
        ) -> StreamableHttpService<McpService, LocalSessionManager> {
            let running = create_test_running();
            StreamableHttpService::new(
                move || Ok(running.for_service()),
                LocalSessionManager::default().into(),
                StreamableHttpServerConfig::default().with_legacy_session_mode(stateful_mode),
            )
        }

        fn create_stateful_service(
            running: Running,
            session_manager: Arc<LocalSessionManager>,
        ) -> StreamableHttpService<McpService, LocalSessionManager> {
            StreamableHttpService::new(
                move || Ok(running.for_service()),
                session_manager,
                StreamableHttpServerConfig::default().with_legacy_session_mode(true),
            )
        }

        fn build_initialize_request() -> Request<Body> {
            let body = json!({
                "jsonrpc": "2.0",
                "id": 1,
                "method": "initialize",
                "params": {
                    "protocolVersion": "2024-11-05",
                    "capabilities": {},
                    "clientInfo": {
                        "name": "test-client",
                        "version": "1.0.0"
                    }
                }
            });
            Request::builder()
                .method("POST")
                .uri("/mcp")
                .header("Host", "localhost:8000")
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .body(Body::from(body.to_string()))
                .unwrap()
        }

        fn build_get_request(
            session_id: Option<&str>,
            last_event_id: Option<&str>,
        ) -> Request<Body> {
            let mut builder = Request::builder()
                .method("GET")
                .uri("/mcp")
                .header("Host", "localhost:8000")
                .header("Accept", "text/event-stream");
            if let Some(id) = session_id {
                builder = builder.header("Mcp-Session-Id", id);
            }
            if let Some(event_id) = last_event_id {
                builder = builder.header("Last-Event-ID", event_id);
            }
            builder.body(Body::empty()).unwrap()
        }

        fn build_delete_request(session_id: &str) -> Request<Body> {
            Request::builder()
                .method("DELETE")
                .uri("/mcp")
                .header("Host", "localhost:8000")
                .header("Mcp-Session-Id", session_id)
                .body(Body::empty())
                .unwrap()
        }

        async fn collect_sse_events<B>(response: http::Response<B>) -> Vec<String>
        where
            B: http_body_util::BodyExt,
            B::Error: std::fmt::Debug,
        {
            let body = response.into_body();
            let bytes = body.collect().await.unwrap().to_bytes();
            let body_str = String::from_utf8_lossy(&bytes);

            body_str
                .lines()
                .filter(|line| !line.is_empty())
                .map(|s| s.to_string())
                .collect()
        }

        #[tokio::test]
        async fn initialize_returns_ok() {
            let service = create_test_service(true);
            let response = service.oneshot(build_initialize_request()).await.unwrap();
            assert_eq!(response.status(), StatusCode::OK);
        }

        #[tokio::test]
        async fn initialize_returns_event_stream() {
            let service = create_test_service(true);
            let response = service.oneshot(build_initialize_request()).await.unwrap();
            let content_type = response.headers().get("content-type").unwrap();
            assert!(content_type.to_str().unwrap().contains("text/event-stream"));
        }

        #[tokio::test]
        async fn priming_event_contains_event_id() {
            let service = create_test_service(true);
            let response = service.oneshot(build_initialize_request()).await.unwrap();
            let events = collect_sse_events(response).await;
            assert!(events.iter().any(|e| e.starts_with("id:")));
        }

        #[tokio::test]
        async fn priming_event_contains_retry_interval() {
            let service = create_test_service(true);
            let response = service.oneshot(build_initialize_request()).await.unwrap();
            let events = collect_sse_events(response).await;
            assert!(events.iter().any(|e| e.starts_with("retry:")));
        }

        #[tokio::test]
        async fn session_id_returned_on_initialize() {
            let service = create_test_service(true);
            let response = service.oneshot(build_initialize_request()).await.unwrap();
            let session_id = response.headers().get("mcp-session-id");
            assert!(!session_id.unwrap().is_empty());
        }

        #[tokio::test]
        async fn get_request_requires_session_id() {
            let service = create_test_service(true);
            let response = service
                .oneshot(build_get_request(None, None))
                .await
                .unwrap();
            assert_eq!(response.status(), StatusCode::BAD_REQUEST);
        }

        #[tokio::test]
        async fn get_request_with_invalid_session_returns_not_found() {
            let service = create_test_service(true);
            let response = service
                .oneshot(build_get_request(Some("non-existent-session"), None))
                .await
                .unwrap();
            assert_eq!(response.status(), StatusCode::NOT_FOUND);
        }

        async fn initialize_and_get_session_id(
            running: Running,
            session_manager: Arc<LocalSessionManager>,
        ) -> String {
            let service = create_stateful_service(running, session_manager);
            let response = service.oneshot(build_initialize_request()).await.unwrap();
            response
                .headers()
                .get("mcp-session-id")
                .unwrap()
                .to_str()
                .unwrap()
                .to_string()
        }

        #[tokio::test]
        async fn reconnect_with_last_event_id_returns_ok() {
            let running = create_test_running();
            let session_manager: Arc<LocalSessionManager> = LocalSessionManager::default().into();
            let session_id =
                initialize_and_get_session_id(running.clone(), Arc::clone(&session_manager)).await;

            let service = create_stateful_service(running, session_manager);
            let response = service
                .oneshot(build_get_request(Some(&session_id), Some("0")))
                .await
                .unwrap();
            assert_eq!(response.status(), StatusCode::OK);
        }

        #[tokio::test]
        async fn reconnect_with_last_event_id_returns_event_stream() {
            let running = create_test_running();
            let session_manager: Arc<LocalSessionManager> = LocalSessionManager::default().into();
            let session_id =
                initialize_and_get_session_id(running.clone(), Arc::clone(&session_manager)).await;

            let service = create_stateful_service(running, session_manager);
            let response = service
                .oneshot(build_get_request(Some(&session_id), Some("0")))
                .await
                .unwrap();
            let content_type = response.headers().get("content-type").unwrap();
            assert!(content_type.to_str().unwrap().contains("text/event-stream"));
        }

        #[tokio::test]
        async fn standalone_get_stream_returns_ok() {
            let running = create_test_running();
            let session_manager: Arc<LocalSessionManager> = LocalSessionManager::default().into();
            let session_id =
                initialize_and_get_session_id(running.clone(), Arc::clone(&session_manager)).await;

            let service = create_stateful_service(running, session_manager);
            let response = service
                .oneshot(build_get_request(Some(&session_id), None))
                .await
                .unwrap();
            assert_eq!(response.status(), StatusCode::OK);
        }

        #[tokio::test]
        async fn standalone_get_stream_returns_event_stream() {
            let running = create_test_running();
            let session_manager: Arc<LocalSessionManager> = LocalSessionManager::default().into();
            let session_id =
                initialize_and_get_session_id(running.clone(), Arc::clone(&session_manager)).await;

            let service = create_stateful_service(running, session_manager);
            let response = service
                .oneshot(build_get_request(Some(&session_id), None))
                .await
                .unwrap();
            let content_type = response.headers().get("content-type").unwrap();
            assert!(content_type.to_str().unwrap().contains("text/event-stream"));
        }

        #[tokio::test]
        async fn delete_request_returns_accepted() {
            let running = create_test_running();
            let session_manager: Arc<LocalSessionManager> = LocalSessionManager::default().into();
            let session_id =
                initialize_and_get_session_id(running.clone(), Arc::clone(&session_manager)).await;

            let service = create_stateful_service(running, session_manager);
            let response = service
                .oneshot(build_delete_request(&session_id))
                .await
                .unwrap();
            assert_eq!(response.status(), StatusCode::ACCEPTED);
        }

        #[tokio::test]
        async fn deleted_session_rejects_subsequent_requests() {
            let running = create_test_running();
            let session_manager: Arc<LocalSessionManager> = LocalSessionManager::default().into();
            let session_id =
                initialize_and_get_session_id(running.clone(), Arc::clone(&session_manager)).await;

            let service = create_stateful_service(running.clone(), Arc::clone(&session_manager));
            service
                .oneshot(build_delete_request(&session_id))
                .await
                .unwrap();

            let service2 = create_stateful_service(running, session_manager);
            let response = service2
                .oneshot(build_get_request(Some(&session_id), None))
                .await
                .unwrap();
            assert_eq!(response.status(), StatusCode::NOT_FOUND);
        }

        #[tokio::test]
        async fn stateless_mode_disables_resumability() {
            let service = create_test_service(false);
            let response = service
                .oneshot(build_get_request(None, None))
                .await
                .unwrap();
            assert_eq!(response.status(), StatusCode::METHOD_NOT_ALLOWED);
        }
    }

    mod legacy_notifications {
        use std::sync::Arc;

        use axum::body::Body;
        use http::{Request, StatusCode};
        use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
        use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
        use serde_json::json;
        use tower::ServiceExt;

        use super::super::test_support::{SseReader, create_test_running, next_message};
        use super::*;

        fn create_service(
            running: Running,
            session_manager: Arc<LocalSessionManager>,
        ) -> StreamableHttpService<McpService, LocalSessionManager> {
            StreamableHttpService::new(
                move || Ok(running.for_service()),
                session_manager,
                StreamableHttpServerConfig::default().with_legacy_session_mode(true),
            )
        }

        struct LegacyHttp {
            running: Running,
            service: StreamableHttpService<McpService, LocalSessionManager>,
        }

        impl LegacyHttp {
            fn new(running: Running) -> Self {
                let service = create_service(running.clone(), Arc::default());
                Self { running, service }
            }

            async fn connect(&self) -> String {
                initialize_legacy_session(&self.service, &self.running).await
            }
        }

        fn build_initialize_request() -> Request<Body> {
            let body = json!({
                "jsonrpc": "2.0",
                "id": 1,
                "method": "initialize",
                "params": {
                    "protocolVersion": "2025-11-25",
                    "capabilities": {},
                    "clientInfo": {
                        "name": "test-client",
                        "version": "1.0.0"
                    }
                }
            });
            Request::builder()
                .method("POST")
                .uri("/mcp")
                .header("Host", "localhost:8000")
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .body(Body::from(body.to_string()))
                .unwrap()
        }

        fn build_delete_request(session_id: &str) -> Request<Body> {
            Request::builder()
                .method("DELETE")
                .uri("/mcp")
                .header("Host", "localhost:8000")
                .header("Mcp-Session-Id", session_id)
                .body(Body::empty())
                .unwrap()
        }

        async fn initialize_legacy_session(
            service: &StreamableHttpService<McpService, LocalSessionManager>,
            running: &Running,
        ) -> String {
            let previous = running.tool_list_changes.receiver_count();
            let response = service
                .clone()
                .oneshot(build_initialize_request())
                .await
                .unwrap();
            assert_eq!(response.status(), StatusCode::OK);
            let session = response.headers()["Mcp-Session-Id"]
                .to_str()
                .unwrap()
                .to_owned();
            assert_eq!(running.tool_list_changes.receiver_count(), previous + 1);

            let response = service
                .clone()
                .oneshot(session_request(
                    &session,
                    http::Method::POST,
                    json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
                ))
                .await
                .unwrap();
            assert_eq!(response.status(), StatusCode::ACCEPTED);
            session
        }

        #[rstest::rstest]
        #[tokio::test]
        #[timeout(std::time::Duration::from_secs(10))]
        async fn deleted_session_releases_forwarder_without_a_catalog_update() {
            let running = create_test_running();
            let session_manager: Arc<LocalSessionManager> = LocalSessionManager::default().into();

            let service = create_service(running.clone(), Arc::clone(&session_manager));
            let session_id = initialize_legacy_session(&service, &running).await;
            let mut stream = SseReader::new(Body::new(
                service
                    .clone()
                    .oneshot(session_get(&session_id))
                    .await
                    .unwrap()
                    .into_body(),
            ));
            running.update_operations(vec![]).await;
            assert_eq!(
                next_message(&mut stream).await["method"],
                "notifications/tools/list_changed"
            );

            // Delete an actively forwarding session, not just a pending receiver.
            let service = create_service(running.clone(), Arc::clone(&session_manager));
            let response = service
                .oneshot(build_delete_request(&session_id))
                .await
                .unwrap();
            assert_eq!(response.status(), StatusCode::ACCEPTED);

            tokio::time::timeout(
                std::time::Duration::from_secs(2),
                running.tool_list_changes.closed(),
            )
            .await
            .expect("session teardown must release its change receiver without another update");
        }
        fn session_request(session: &str, method: http::Method, body: Value) -> Request<Body> {
            Request::builder()
                .method(method.clone())
                .uri("/mcp")
                .header("Host", "localhost")
                .header("Accept", "application/json, text/event-stream")
                .header("Content-Type", "application/json")
                .header("Mcp-Session-Id", session)
                .body(if method == http::Method::GET {
                    Body::empty()
                } else {
                    Body::from(body.to_string())
                })
                .unwrap()
        }

        fn session_get(session: &str) -> Request<Body> {
            session_request(session, http::Method::GET, Value::Null)
        }

        fn session_post(session: &str, body: Value) -> Request<Body> {
            session_request(session, http::Method::POST, body)
        }

        #[rstest::rstest]
        #[case::application(false)]
        #[case::signal(true)]
        #[tokio::test]
        #[timeout(std::time::Duration::from_secs(10))]
        async fn http_shutdown_releases_an_open_notification_stream(#[case] signal_shutdown: bool) {
            use crate::server::states::starting::{build_http_service, serve_http};
            let running = create_test_running();
            let shutdown = running.cancellation_token.clone();
            let service = build_http_service(running.clone(), true, &Default::default());
            let session = initialize_legacy_session(&service, &running).await;
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            let address = listener.local_addr().unwrap();
            let (signal, received) = tokio::sync::oneshot::channel();
            let server = tokio::spawn(serve_http(
                listener,
                axum::Router::new().nest_service("/mcp", service),
                shutdown.clone(),
                async move {
                    received.await.unwrap();
                },
            ));
            let mut response = reqwest::Client::new()
                .get(format!("http://{address}/mcp"))
                .header("Accept", "text/event-stream")
                .header("Mcp-Session-Id", session)
                .send()
                .await
                .unwrap();
            assert_eq!(response.status(), StatusCode::OK);
            running.update_operations(vec![]).await;
            let mut received = String::new();
            while !received.contains("notifications/tools/list_changed") {
                let chunk = response
                    .chunk()
                    .await
                    .unwrap()
                    .expect("open notification stream");
                received.push_str(&String::from_utf8_lossy(&chunk));
            }
            assert_eq!(running.tool_list_changes.receiver_count(), 1);
            if signal_shutdown {
                signal.send(()).unwrap();
            } else {
                shutdown.cancel();
            }
            server.await.unwrap().unwrap();
            running.tool_list_changes.closed().await;
            assert!(shutdown.is_cancelled());
            drop(response);
        }

        #[rstest::rstest]
        #[tokio::test]
        #[timeout(std::time::Duration::from_secs(10))]
        async fn updates_while_initialized_callback_is_delayed_are_delivered() {
            struct DelayedService {
                service: McpService,
                release: Arc<tokio::sync::Semaphore>,
                entered: tokio::sync::mpsc::UnboundedSender<()>,
            }
            impl ServerHandler for DelayedService {
                fn get_info(&self) -> ServerConfig {
                    self.service.get_info()
                }
                async fn initialize(
                    &self,
                    request: InitializeRequestParams,
                    context: RequestContext<RoleServer>,
                ) -> Result<InitializeResult, McpError> {
                    self.service.initialize(request, context).await
                }
                async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
                    self.entered.send(()).unwrap();
                    self.release.acquire().await.unwrap().forget();
                    self.service.on_initialized(context).await;
                }
                async fn list_tools(
                    &self,
                    request: Option<PaginatedRequestParams>,
                    context: RequestContext<RoleServer>,
                ) -> Result<ListToolsResult, McpError> {
                    self.service.list_tools(request, context).await
                }
            }
            let running = create_test_running();
            let release = Arc::new(tokio::sync::Semaphore::new(0));
            let (entered, mut callbacks) = tokio::sync::mpsc::unbounded_channel();
            let service = StreamableHttpService::new(
                {
                    let running = running.clone();
                    let release = release.clone();
                    move || {
                        Ok(DelayedService {
                            service: running.for_service(),
                            release: release.clone(),
                            entered: entered.clone(),
                        })
                    }
                },
                Arc::new(LocalSessionManager::default()),
                StreamableHttpServerConfig::default().with_legacy_session_mode(true),
            );
            let response = service
                .clone()
                .oneshot(build_initialize_request())
                .await
                .unwrap();
            let session = response.headers()["Mcp-Session-Id"]
                .to_str()
                .unwrap()
                .to_owned();
            service
                .clone()
                .oneshot(session_post(
                    &session,
                    json!({"jsonrpc":"2.0","method":"notifications/initialized"}),
                ))
                .await
                .unwrap();
            callbacks.recv().await.unwrap();
            let list = json!({"jsonrpc":"2.0","id":2,"method":"tools/list"});
            let mut before = SseReader::new(Body::new(
                service
                    .clone()
                    .oneshot(session_post(&session, list.clone()))
                    .await
                    .unwrap()
                    .into_body(),
            ));
            assert!(
                next_message(&mut before).await["result"]["tools"]
                    .as_array()
                    .unwrap()
                    .is_empty()
            );
            let mut stream = SseReader::new(Body::new(
                service
                    .clone()
                    .oneshot(session_get(&session))
                    .await
                    .unwrap()
                    .into_body(),
            ));
            running
                .update_operations(vec![("query Hello { hello }".to_owned(), None).into()])
                .await;
            // The update must be retained even though delivery has not started.
            release.add_permits(1);
            assert_eq!(
                next_message(&mut stream).await["method"],
                "notifications/tools/list_changed"
            );
            let mut after = SseReader::new(Body::new(
                service
                    .clone()
                    .oneshot(session_post(&session, list))
                    .await
                    .unwrap()
                    .into_body(),
            ));
            assert_eq!(
                next_message(&mut after).await["result"]["tools"][0]["name"],
                "Hello"
            );
            service
                .oneshot(build_delete_request(&session))
                .await
                .unwrap();
            running.tool_list_changes.closed().await;
        }

        #[rstest::rstest]
        #[tokio::test]
        #[timeout(std::time::Duration::from_secs(10))]
        async fn repeated_initialized_notifications_keep_one_forwarder() {
            // rmcp dispatches notifications concurrently. Observe completion of
            // each real callback rather than treating a later request as a barrier.
            struct ObservedService {
                running: McpService,
                completed: tokio::sync::mpsc::UnboundedSender<()>,
            }
            impl ServerHandler for ObservedService {
                fn get_info(&self) -> ServerConfig {
                    self.running.get_info()
                }

                async fn initialize(
                    &self,
                    request: InitializeRequestParams,
                    context: RequestContext<RoleServer>,
                ) -> Result<InitializeResult, McpError> {
                    self.running.initialize(request, context).await
                }

                async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
                    self.running.on_initialized(context).await;
                    self.completed.send(()).unwrap();
                }
            }
            let running = create_test_running();
            let (completed, mut callbacks) = tokio::sync::mpsc::unbounded_channel();
            let service = StreamableHttpService::new(
                {
                    let running = running.clone();
                    move || {
                        Ok(ObservedService {
                            running: running.for_service(),
                            completed: completed.clone(),
                        })
                    }
                },
                Arc::new(LocalSessionManager::default()),
                StreamableHttpServerConfig::default().with_legacy_session_mode(true),
            );
            let response = service
                .clone()
                .oneshot(build_initialize_request())
                .await
                .unwrap();
            assert_eq!(response.status(), StatusCode::OK);
            let session = response.headers()["Mcp-Session-Id"]
                .to_str()
                .unwrap()
                .to_owned();
            assert_eq!(running.tool_list_changes.receiver_count(), 1);
            for _ in 0..2 {
                let response = service
                    .clone()
                    .oneshot(session_post(
                        &session,
                        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
                    ))
                    .await
                    .unwrap();
                assert_eq!(response.status(), StatusCode::ACCEPTED);
                tokio::time::timeout(std::time::Duration::from_secs(2), callbacks.recv())
                    .await
                    .unwrap()
                    .unwrap();
                assert_eq!(running.tool_list_changes.receiver_count(), 1);
            }
            service
                .oneshot(build_delete_request(&session))
                .await
                .unwrap();
            tokio::time::timeout(
                std::time::Duration::from_secs(2),
                running.tool_list_changes.closed(),
            )
            .await
            .unwrap();
        }

        #[rstest::rstest]
        #[tokio::test]
        #[timeout(std::time::Duration::from_secs(10))]
        async fn http_clients_receive_catalog_updates_across_sse_reconnects() {
            let mut running = create_test_running();
            running.enable_output_schema = true;
            let fixture = LegacyHttp::new(running.clone());
            let service = fixture.service.clone();
            let mut sessions = Vec::new();
            for _ in 0..2 {
                sessions.push(fixture.connect().await);
            }
            let mut streams = Vec::new();
            for session in &sessions {
                let response = service.clone().oneshot(session_get(session)).await.unwrap();
                assert_eq!(response.status(), StatusCode::OK);
                streams.push(SseReader::new(Body::new(response.into_body())));
            }
            running
                .update_operations(vec![("query Hello { hello }".to_owned(), None).into()])
                .await;
            let mut last_event_ids = Vec::new();
            for stream in &mut streams {
                last_event_ids.push(stream.next_notification().await);
            }
            let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"});
            let mut response = SseReader::new(Body::new(
                service
                    .clone()
                    .oneshot(session_post(&sessions[0], list.clone()))
                    .await
                    .unwrap()
                    .into_body(),
            ));
            let before = next_message(&mut response).await;
            assert_eq!(before["result"]["tools"][0]["name"], "Hello");

            // Closing a GET stream must not tear down a reconnectable legacy session.
            streams.clear();
            running
                .update_schema(
                    apollo_compiler::Schema::parse_and_validate(
                        "type Query { hello: Int! }",
                        "test",
                    )
                    .unwrap(),
                )
                .await;
            // Resume from the last observed event, rather than replaying all history.
            for (session, last_event_id) in sessions.iter().zip(&last_event_ids) {
                let mut request = session_get(session);
                request
                    .headers_mut()
                    .insert("Last-Event-ID", last_event_id.parse().unwrap());
                let response = service.clone().oneshot(request).await.unwrap();
                assert_eq!(response.status(), StatusCode::OK);
                streams.push(SseReader::new(Body::new(response.into_body())));
            }
            for (stream, last_event_id) in streams.iter_mut().zip(&mut last_event_ids) {
                let mut next_event_id = stream.next_notification().await;
                // rmcp 3.2's in-memory cache replays the cursor event inclusively.
                // That duplicate cannot establish delivery of the gap update.
                if next_event_id == *last_event_id {
                    next_event_id = stream.next_notification().await;
                }
                assert_ne!(next_event_id, *last_event_id);
                *last_event_id = next_event_id;
            }

            let mut response = SseReader::new(Body::new(
                service
                    .clone()
                    .oneshot(session_post(&sessions[0], list))
                    .await
                    .unwrap()
                    .into_body(),
            ));
            let after = next_message(&mut response).await;
            assert_ne!(
                before["result"]["tools"][0]["outputSchema"],
                after["result"]["tools"][0]["outputSchema"]
            );
            // Delivery must also continue after the streams have reconnected.
            running.update_operations(vec![]).await;
            for (stream, last_event_id) in streams.iter_mut().zip(&last_event_ids) {
                assert_ne!(stream.next_notification().await, *last_event_id);
            }
            for session in &sessions {
                service
                    .clone()
                    .oneshot(build_delete_request(session))
                    .await
                    .unwrap();
            }
            drop(streams);
            tokio::time::timeout(
                std::time::Duration::from_secs(2),
                running.tool_list_changes.closed(),
            )
            .await
            .unwrap();
        }

        #[rstest::rstest]
        #[tokio::test]
        #[timeout(std::time::Duration::from_secs(10))]
        async fn stdio_delivers_changes_and_releases_forwarder_on_disconnect() {
            use rmcp::ServiceExt as _;
            use tokio::io::{AsyncBufReadExt as _, AsyncWriteExt as _, BufReader};
            let running = create_test_running();
            let connection = running.for_service();
            let intermediate_clone = connection.clone();
            let (server_io, client_io) = tokio::io::duplex(4096);
            let server = tokio::spawn(async move {
                connection
                    .serve(server_io)
                    .await
                    .unwrap()
                    .waiting()
                    .await
                    .unwrap();
            });
            let (reader, mut writer) = tokio::io::split(client_io);
            let mut reader = BufReader::new(reader);
            let init = json!({"jsonrpc":"2.0", "id":1, "method":"initialize", "params": {
                "protocolVersion":"2025-11-25", "capabilities":{}, "clientInfo":{"name":"test", "version":"1"}
            }});
            writer
                .write_all(format!("{init}\n").as_bytes())
                .await
                .unwrap();
            let mut line = String::new();
            reader.read_line(&mut line).await.unwrap();
            assert!(
                serde_json::from_str::<Value>(&line)
                    .unwrap()
                    .get("result")
                    .is_some()
            );
            assert_eq!(running.tool_list_changes.receiver_count(), 1);
            let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
            writer
                .write_all(format!("{initialized}\n").as_bytes())
                .await
                .unwrap();
            drop(intermediate_clone);
            running.update_operations(vec![]).await;
            line.clear();
            tokio::time::timeout(
                std::time::Duration::from_secs(2),
                reader.read_line(&mut line),
            )
            .await
            .unwrap()
            .unwrap();
            assert_eq!(
                serde_json::from_str::<Value>(&line).unwrap()["method"],
                "notifications/tools/list_changed"
            );
            drop(reader);
            drop(writer);
            tokio::time::timeout(std::time::Duration::from_secs(2), server)
                .await
                .unwrap()
                .unwrap();
            tokio::time::timeout(
                std::time::Duration::from_secs(2),
                running.tool_list_changes.closed(),
            )
            .await
            .unwrap();
        }
    }

    mod logging_setlevel {
        use std::sync::Arc;

        use axum::body::Body;
        use http_body_util::BodyExt as _;
        use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
        use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
        use serde_json::json;
        use tokio::sync::RwLock;
        use tower::ServiceExt as _;

        use super::*;

        fn create_test_running() -> Running {
            let schema =
                apollo_compiler::Schema::parse_and_validate("type Query { hello: String }", "test")
                    .unwrap();
            Running {
                schema: Arc::new(RwLock::new(schema)),
                operations: Arc::new(RwLock::new(vec![])),
                apps: vec![],
                prompts: vec![],
                headers: http::HeaderMap::new(),
                forward_headers: vec![],
                endpoint: url::Url::parse("http://localhost:4000").unwrap(),
                execute_tool: None,
                introspect_tool: None,
                search_tool: None,
                explorer_tool: None,
                validate_tool: None,
                custom_scalar_map: None,
                tool_list_changes: Default::default(),
                cancellation_token: CancellationToken::new(),
                mutation_mode: MutationMode::None,
                disable_type_description: false,
                disable_schema_description: false,
                enable_output_schema: false,
                disable_auth_token_passthrough: false,
                descriptions: HashMap::new(),
                annotations: HashMap::new(),
                param_headers: HashMap::new(),
                health_check: None,
                server_info: Default::default(),
                instructions: None,
                rhai_engine: SharedRhaiEngine::new("rhai"),
                caching: Caching::default(),
                tasks: Default::default(),
            }
        }

        #[tokio::test]
        async fn legacy_sessionless_request_returns_empty_success() {
            let running = create_test_running();
            let body = super::stateless_request(
                running,
                "2025-11-25",
                "logging/setLevel",
                json!({"level": "debug"}),
            )
            .await;
            assert!(
                body.get("error").is_none(),
                "set_level should not return an error: {body}"
            );
            assert_eq!(body["result"], json!({}));
        }

        fn modern_request() -> http::Request<Body> {
            http::Request::builder()
                .method("POST")
                .uri("/mcp")
                .header("Host", "localhost")
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .header("Mcp-Protocol-Version", "2026-07-28")
                .header("Mcp-Method", "logging/setLevel")
                .body(Body::from(json!({
                    "jsonrpc": "2.0", "id": 42, "method": "logging/setLevel",
                    "params": {
                        "level": "debug",
                        "_meta": {
                            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                            "io.modelcontextprotocol/clientCapabilities": {},
                            "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "1"}
                        }
                    }
                }).to_string()))
                .unwrap()
        }

        #[rstest::rstest]
        #[tokio::test]
        async fn modern_request_returns_http_method_not_found(
            #[values(false, true)] json_response: bool,
        ) {
            let running = create_test_running();
            let capabilities =
                serde_json::to_value(running.for_service().get_info().capabilities).unwrap();
            assert!(capabilities.get("logging").is_none());
            let service = StreamableHttpService::new(
                move || Ok(running.for_service()),
                Arc::new(LocalSessionManager::default()),
                StreamableHttpServerConfig::default()
                    .with_legacy_session_mode(false)
                    .with_json_response(json_response),
            );
            let response = service.oneshot(modern_request()).await.unwrap();
            assert_eq!(response.status(), http::StatusCode::NOT_FOUND);
            let bytes = response.into_body().collect().await.unwrap().to_bytes();
            let body: Value = serde_json::from_slice(&bytes).unwrap();
            assert_eq!(body["id"], 42);
            assert_eq!(body["error"]["code"], -32601);
            assert!(body.get("result").is_none());
        }

        #[rstest::rstest]
        #[tokio::test]
        #[timeout(std::time::Duration::from_secs(10))]
        async fn legacy_negotiated_request_returns_empty_success() {
            use rmcp::ServiceExt as _;
            use tokio::io::{AsyncBufReadExt as _, AsyncWriteExt as _, BufReader};

            let running = create_test_running();
            let (server_io, client_io) = tokio::io::duplex(4096);
            let (reader, mut writer) = tokio::io::split(client_io);
            let mut reader = BufReader::new(reader);
            let server = tokio::spawn(async move {
                running
                    .for_service()
                    .serve(server_io)
                    .await
                    .unwrap()
                    .waiting()
                    .await
                    .unwrap();
            });
            let initialize = json!({
                "jsonrpc": "2.0", "id": 1, "method": "initialize",
                "params": {
                    "protocolVersion": "2025-11-25", "capabilities": {},
                    "clientInfo": {"name": "test", "version": "1"}
                }
            });
            writer
                .write_all(format!("{initialize}\n").as_bytes())
                .await
                .unwrap();
            let mut line = String::new();
            reader.read_line(&mut line).await.unwrap();
            let response: Value = serde_json::from_str(&line).unwrap();
            assert_eq!(response["id"], 1);
            assert_eq!(response["result"]["protocolVersion"], "2025-11-25");
            assert!(response["result"]["capabilities"].get("logging").is_none());

            let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
            writer
                .write_all(format!("{initialized}\n").as_bytes())
                .await
                .unwrap();
            let set_level = json!({
                "jsonrpc": "2.0", "id": 2, "method": "logging/setLevel",
                "params": {"level": "debug"}
            });
            writer
                .write_all(format!("{set_level}\n").as_bytes())
                .await
                .unwrap();
            line.clear();
            reader.read_line(&mut line).await.unwrap();
            let response: Value = serde_json::from_str(&line).unwrap();
            assert_eq!(response["id"], 2);
            assert_eq!(response["result"], json!({}));
            assert!(response.get("error").is_none());

            drop(reader);
            drop(writer);
            server.await.unwrap();
        }
    }

    /// `server/discover`: called before any other request, without a session.
    mod discover {
        use std::sync::Arc;

        use axum::body::Body;
        use http::{Request, StatusCode};
        use http_body_util::BodyExt;
        use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
        use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
        use serde_json::json;
        use tokio::sync::RwLock;
        use tower::ServiceExt;

        use super::*;
        use crate::server_info::ServerInfoConfig;

        /// Discovery has no top-level `serverInfo`; it lives in `_meta`.
        const SERVER_INFO_META_KEY: &str = "io.modelcontextprotocol/serverInfo";

        fn create_test_running(server_info: ServerInfoConfig) -> Running {
            let schema =
                apollo_compiler::Schema::parse_and_validate("type Query { hello: String }", "test")
                    .unwrap();
            Running {
                schema: Arc::new(RwLock::new(schema)),
                operations: Arc::new(RwLock::new(vec![])),
                apps: vec![],
                prompts: vec![],
                headers: http::HeaderMap::new(),
                forward_headers: vec![],
                endpoint: url::Url::parse("http://localhost:4000").unwrap(),
                execute_tool: None,
                introspect_tool: None,
                search_tool: None,
                explorer_tool: None,
                validate_tool: None,
                custom_scalar_map: None,
                tool_list_changes: Default::default(),
                cancellation_token: CancellationToken::new(),
                mutation_mode: MutationMode::None,
                disable_type_description: false,
                disable_schema_description: false,
                enable_output_schema: false,
                disable_auth_token_passthrough: false,
                descriptions: HashMap::new(),
                annotations: HashMap::new(),
                param_headers: HashMap::new(),
                health_check: None,
                server_info,
                instructions: None,
                rhai_engine: SharedRhaiEngine::new("rhai"),
                caching: Caching::default(),
                tasks: Default::default(),
            }
        }

        fn create_service(
            running: Running,
            session_manager: Arc<LocalSessionManager>,
        ) -> StreamableHttpService<McpService, LocalSessionManager> {
            StreamableHttpService::new(
                move || Ok(running.for_service()),
                session_manager,
                StreamableHttpServerConfig::default().with_legacy_session_mode(true),
            )
        }

        /// Carries no session id, so `_meta` and the `MCP-Protocol-Version`
        /// header have to be self-contained.
        fn build_discover_request(protocol_version: &str) -> Request<Body> {
            let body = json!({
                "jsonrpc": "2.0",
                "id": 1,
                "method": "server/discover",
                "params": {
                    "_meta": {
                        "io.modelcontextprotocol/protocolVersion": protocol_version,
                        "io.modelcontextprotocol/clientCapabilities": {},
                        "io.modelcontextprotocol/clientInfo": {
                            "name": "test-client",
                            "version": "1.0.0"
                        }
                    }
                }
            });
            Request::builder()
                .method("POST")
                .uri("/mcp")
                .header("Host", "localhost:8000")
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .header("MCP-Protocol-Version", protocol_version)
                // SEP-2243 standard header.
                .header("Mcp-Method", "server/discover")
                .body(Body::from(body.to_string()))
                .unwrap()
        }

        async fn discover(running: Running) -> serde_json::Value {
            let service = create_service(running, LocalSessionManager::default().into());
            let response = service
                .oneshot(build_discover_request(
                    MAX_SUPPORTED_PROTOCOL_VERSION.as_str(),
                ))
                .await
                .unwrap();
            let status = response.status();
            let bytes = response.into_body().collect().await.unwrap().to_bytes();
            let body_str = String::from_utf8_lossy(&bytes);
            let body: serde_json::Value = body_str
                .lines()
                .find_map(|line| serde_json::from_str(line.strip_prefix("data: ")?).ok())
                .or_else(|| serde_json::from_str(&body_str).ok())
                .unwrap_or_else(|| panic!("no JSON data found in response: {body_str}"));
            assert_eq!(status, StatusCode::OK, "discover failed: {body}");
            body["result"].clone()
        }

        #[tokio::test]
        async fn returns_expected_result_shape() {
            let running = create_test_running(ServerInfoConfig {
                description: Some("Custom fleet description".to_string()),
                ..Default::default()
            });
            let expected_capabilities =
                serde_json::to_value(running.for_service().get_info().capabilities)
                    .expect("capabilities serialize");

            let result = discover(running).await;

            assert_eq!(result["resultType"], "complete");
            // `initialize` returns `get_info()` untouched but for the
            // negotiated version, so this is the capability set both report.
            assert_eq!(result["capabilities"], expected_capabilities);
            assert!(result["ttlMs"].is_u64(), "ttlMs must be a number: {result}");
            assert!(
                result["cacheScope"].is_string(),
                "cacheScope must be a string: {result}"
            );

            let server_info = &result["_meta"][SERVER_INFO_META_KEY];
            assert_eq!(server_info["description"], "Custom fleet description");
            assert_eq!(server_info["name"], "Apollo MCP Server");
            assert!(
                server_info["version"].is_string(),
                "serverInfo must carry a version: {server_info}"
            );
        }

        #[tokio::test]
        async fn advertises_backward_compatible_protocol_versions() {
            let result = discover(create_test_running(ServerInfoConfig::default())).await;

            let versions: Vec<&str> = result["supportedVersions"]
                .as_array()
                .expect("supportedVersions must be an array")
                .iter()
                .map(|version| version.as_str().expect("versions are strings"))
                .collect();

            assert!(
                versions.contains(&"2025-11-25") && versions.contains(&"2026-07-28"),
                "must advertise modern and backward compatible versions: {versions:?}"
            );
            // rmcp reuses this list as the ceiling on `initialize`
            // negotiation, so advertising a version promises we can serve it.
            assert!(
                !versions
                    .iter()
                    .any(|version| *version > MAX_SUPPORTED_PROTOCOL_VERSION.as_str()),
                "must not advertise past our cap: {versions:?}"
            );
        }

        /// stdio has no headers to negotiate with, so discovery as the opening
        /// message is the only compatibility probe available there.
        #[tokio::test]
        async fn works_as_opener_over_stdio() {
            use rmcp::ServiceExt as _;
            use tokio::io::{AsyncBufReadExt as _, AsyncWriteExt as _, BufReader};

            let (server_io, client_io) = tokio::io::duplex(4096);
            let (server_r, server_w) = tokio::io::split(server_io);
            let (client_r, mut client_w) = tokio::io::split(client_io);

            let server = tokio::spawn(async move {
                let service = create_test_running(ServerInfoConfig::default())
                    .for_service()
                    .serve((server_r, server_w))
                    .await
                    .expect("stdio serve should accept a discover opener");
                let _ = service.waiting().await;
            });

            let mut request = json!({
                "jsonrpc": "2.0",
                "id": 1,
                "method": "server/discover",
                "params": {
                    "_meta": {
                        "io.modelcontextprotocol/protocolVersion":
                            MAX_SUPPORTED_PROTOCOL_VERSION.as_str(),
                        "io.modelcontextprotocol/clientCapabilities": {},
                    }
                }
            })
            .to_string();
            request.push('\n');
            client_w.write_all(request.as_bytes()).await.unwrap();

            let mut reader = BufReader::new(client_r);
            let mut response_line = String::new();
            reader.read_line(&mut response_line).await.unwrap();
            let body: serde_json::Value = serde_json::from_str(&response_line).unwrap();

            assert!(
                body.get("error").is_none(),
                "discover over stdio returned an error: {body}"
            );
            let versions = body["result"]["supportedVersions"]
                .as_array()
                .expect("supportedVersions must be an array");
            assert!(versions.iter().any(|version| version == "2025-11-25"));

            drop(reader);
            drop(client_w);
            let _ = server.await;
        }
    }
}

#[cfg(test)]
mod backpressure_tests;

#[cfg(test)]
pub(super) mod test_support;

#[cfg(test)]
mod method_header_tests;

#[cfg(test)]
mod param_header_tests;

#[cfg(test)]
mod subscription_tests;

#[cfg(test)]
mod schema_conformance_tests;

#[cfg(test)]
mod task_tests;
