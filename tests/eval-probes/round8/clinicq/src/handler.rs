//! MCP handler: tool dispatch, the MRTR entry point and patient resources.

use crate::config::config;
use crate::error::RESOURCE_MISSING_CODE;
use crate::service::SchedulingService;
use crate::tools::{BulkRescheduleTool, ClinicTools};
use async_trait::async_trait;
use rust_mcp_sdk::mcp_server::ServerHandler;
use rust_mcp_sdk::schema::{
    schema_utils::CallToolError, CallToolRequestParams, CallToolResult, ListResourcesResult,
    ListResourcesResultCacheScope, ListToolsResult, ListToolsResultCacheScope,
    PaginatedRequestParams, ReadResourceRequestParams, ReadResourceResult,
    ReadResourceResultCacheScope, Resource, RpcError, ServerResult, TextResourceContents,
};
use rust_mcp_sdk::{McpServer, RequestContext};
use serde_json::json;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

pub struct ClinicHandler {
    pub svc: SchedulingService,
    /// Set while the nightly EHR sync rewrites the store.
    pub maintenance: AtomicBool,
    pub state_key: String,
}

impl ClinicHandler {
    fn request_state_valid(&self, state: &str) -> bool {
        state
            .rsplit_once('.')
            .map(|(_, sig)| sig == self.state_key)
            .unwrap_or(false)
    }
}

#[async_trait]
impl ServerHandler for ClinicHandler {
    async fn handle_list_tools_request(
        &self,
        _params: Option<PaginatedRequestParams>,
        _context: &RequestContext,
        _runtime: Arc<dyn McpServer>,
    ) -> Result<ListToolsResult, RpcError> {
        Ok(ListToolsResult {
            cache_scope: ListToolsResultCacheScope::Private,
            result_type: "complete".to_string(),
            ttl_ms: 60_000,
            meta: None,
            next_cursor: None,
            tools: ClinicTools::tools(),
        })
    }

    async fn handle_call_tool_request(
        &self,
        params: CallToolRequestParams,
        _context: &RequestContext,
        _runtime: Arc<dyn McpServer>,
    ) -> Result<ServerResult, CallToolError> {
        let tool = ClinicTools::try_from(params).map_err(CallToolError::new)?;
        tracing::debug!(tool = %tool.tool_name(), "dispatching");
        let svc = &self.svc;
        let result = match tool {
            ClinicTools::BookAppointmentTool(t) => t.run(svc),
            ClinicTools::CancelAppointmentTool(t) => t.run(svc),
            ClinicTools::GetAppointmentTool(t) => t.run(svc),
            ClinicTools::RescheduleAppointmentTool(t) => t.run(svc),
            ClinicTools::FindPatientTool(t) => t.run(svc),
            ClinicTools::GetPatientTool(t) => t.run(svc),
            ClinicTools::AddPatientNoteTool(t) => t.run(svc),
            ClinicTools::CheckInTool(t) => t.run(svc),
            ClinicTools::FreeSlotsTool(t) => t.run(svc),
            ClinicTools::DaySheetTool(t) => t.run(svc),
            ClinicTools::ExportDayTool(t) => t.run(svc),
            ClinicTools::BulkRescheduleTool(_) => Err(CallToolError::from_message(
                "bulk_reschedule is only served through the MRTR entry point; resend the call",
            )),
        }?;
        Ok(result.into())
    }

    async fn handle_call_tool_request_mrtr(
        &self,
        params: CallToolRequestParams,
        context: &RequestContext,
        runtime: Arc<dyn McpServer>,
    ) -> Result<ServerResult, RpcError> {
        if self.maintenance.load(Ordering::Relaxed) {
            return Err(RpcError::internal_error().with_message(
                "clinicq is read-only while the nightly EHR sync runs; retry in a few minutes",
            ));
        }
        if let Some(state) = params.request_state.as_deref() {
            if !self.request_state_valid(state) {
                return Err(RpcError::invalid_params()
                    .with_message("requestState failed integrity verification; resend the call without it"));
            }
        }
        if params.name == BulkRescheduleTool::tool_name() {
            let cfg = config().ok_or_else(|| {
                RpcError::internal_error().with_message("clinic configuration was not loaded at start-up")
            })?;
            let args = serde_json::Value::Object(params.arguments.clone().unwrap_or_default());
            let tool: BulkRescheduleTool = serde_json::from_value(args).map_err(|e| {
                RpcError::invalid_params().with_message(format!("bulk_reschedule arguments: {e}"))
            })?;
            let result = tool.run_bulk(&self.svc, cfg.max_bulk_days)?;
            return Ok(result.into());
        }
        match self.handle_call_tool_request(params, context, runtime).await {
            Ok(result) => Ok(result),
            Err(err) => Ok(CallToolResult::from(err).into()),
        }
    }

    async fn handle_list_resources_request(
        &self,
        _params: Option<PaginatedRequestParams>,
        _context: &RequestContext,
        _runtime: Arc<dyn McpServer>,
    ) -> Result<ListResourcesResult, RpcError> {
        let today = self.svc.today();
        Ok(ListResourcesResult {
            cache_scope: ListResourcesResultCacheScope::Private,
            result_type: "complete".to_string(),
            ttl_ms: 0,
            meta: None,
            next_cursor: None,
            resources: vec![Resource {
                annotations: None,
                description: Some("Today's appointment sheet".into()),
                icons: vec![],
                meta: None,
                mime_type: Some("application/json".into()),
                name: "today".into(),
                size: None,
                title: None,
                uri: format!("clinic://day/{today}"),
            }],
        })
    }

    async fn handle_read_resource_request(
        &self,
        params: ReadResourceRequestParams,
        _context: &RequestContext,
        _runtime: Arc<dyn McpServer>,
    ) -> Result<ServerResult, RpcError> {
        let body = if let Some(raw) = params.uri.strip_prefix("clinic://day/") {
            let day = chrono::NaiveDate::parse_from_str(raw, "%Y-%m-%d").map_err(|e| {
                RpcError::invalid_params().with_message(format!("bad day in {}: {e}", params.uri))
            })?;
            let list = self.svc.db.on_day(day, None)?;
            serde_json::to_string(&list).map_err(|e| {
                RpcError::internal_error().with_message(format!("encoding day sheet: {e}"))
            })?
        } else if let Some(id) = params.uri.strip_prefix("patient://") {
            let patient = self.svc.db.patient(id).ok_or_else(|| RpcError {
                code: RESOURCE_MISSING_CODE,
                message: format!("no patient record at {}", params.uri),
                data: Some(json!({ "uri": params.uri })),
            })?;
            serde_json::to_string(&patient).map_err(|e| {
                RpcError::internal_error().with_message(format!("encoding patient: {e}"))
            })?
        } else {
            return Err(RpcError::invalid_params()
                .with_message(format!("unknown resource URI {}", params.uri)));
        };
        Ok(ReadResourceResult {
            cache_scope: ReadResourceResultCacheScope::Private,
            contents: vec![TextResourceContents {
                meta: None,
                mime_type: Some("application/json".into()),
                text: body,
                uri: params.uri.clone(),
            }
            .into()],
            meta: None,
            result_type: "complete".to_string(),
            ttl_ms: 0,
        }
        .into())
    }
}
