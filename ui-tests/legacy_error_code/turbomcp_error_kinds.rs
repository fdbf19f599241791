//@ dep: turbomcp = "3.6"
//@ dep: turbomcp-core = "3.6"
//@ dep: serde_json = "1"
// turbomcp 3.x maps several `ErrorKind`s to legacy-range codes (`jsonrpc_error_code()`):
// ResourceAccessDenied -32005, ProtocolVersionMismatch -32007, Authentication -32008,
// RateLimited -32009, ServerOverloaded -32010, PermissionDenied -32011, Timeout -32012,
// Unavailable -32013, Transport -32014, Configuration -32015, ExternalService -32016,
// Cancelled -32017, Security -32018. A kind is a legacy code only where the error is sent as a
// JSON-RPC error: a hand-written `McpHandler::call_tool`, a resource or prompt handler. Inside a
// `#[server]` `#[tool]` fn the macro makes it an isError result and the code only rides in
// `_meta["io.turbomcp/errorCode"]`: not reported, nor in a crate fn only such tools call
// (`checked_report(..)?`); a crate fn a resource handler calls too sends its kind. The span is the constructor
// (`McpError::rate_limited(..)`) or the `ErrorKind::X` path in `McpError::new`. Cancellation is a
// server-side condition, not a tool failure, so `McpError::cancelled` is only the code finding.
// `McpError::resource_not_found` (-32002) is not reported: turbomcp 3.6 negotiates at most
// 2025-11-25, where -32002 is the spec's own code (as for rmcp before 1.8).
use std::future::Future;

use serde_json::Value;
use turbomcp::prelude::*;
use turbomcp_core::ErrorKind;

#[derive(Clone)]
struct Exporter;

fn checked_report(report: &str) -> McpResult<&str> {
    if report.is_empty() {
        return Err(McpError::configuration("no default report is configured; name one"));
    }
    Ok(report)
}

fn signed_in(ctx: &RequestContext, what: &str) -> McpResult<()> {
    if ctx.subject().is_none() {
        return Err(McpError::permission_denied(format!("{what} needs an authenticated principal"))); //~ legacy_error_code
    }
    Ok(())
}

#[server(name = "exporter", version = "1.0.0")]
impl Exporter {
    /// Export a report; the kinds stay in `_meta` of an isError result.
    #[tool]
    async fn export(&self, report: String, ctx: &RequestContext) -> McpResult<String> {
        let report = checked_report(&report)?.to_string();
        signed_in(ctx, &report)?;
        if ctx.is_cancelled() {
            return Err(McpError::cancelled("export cancelled by the client"));
        }
        if report.len() > 64 {
            return Err(McpError::rate_limited(format!("report name {report:?} is too long; use at most 64 characters")));
        }
        Err(McpError::new(ErrorKind::Unavailable, format!("the export service is down; {report} was not exported")))
    }
}

#[derive(Clone)]
struct ManualExporter;

impl McpHandler for ManualExporter {
    fn server_info(&self) -> ServerInfo {
        ServerInfo::new("manual-exporter", "1.0.0")
    }

    fn list_tools(&self) -> Vec<Tool> {
        vec![Tool::new("export", "Export a report")]
    }

    fn list_resources(&self) -> Vec<Resource> {
        vec![]
    }

    fn list_prompts(&self) -> Vec<Prompt> {
        vec![]
    }

    fn call_tool<'a>(&'a self, name: &'a str, args: Value, ctx: &'a RequestContext) -> impl Future<Output = McpResult<ToolResult>> + 'a {
        let name = name.to_string();
        async move {
            if name != "export" {
                return Err(McpError::tool_not_found(&name));
            }
            if ctx.is_cancelled() {
                return Err(McpError::cancelled("export cancelled by the client")); //~ legacy_error_code
            }
            let report = args.get("report").and_then(Value::as_str).unwrap_or_default();
            if report.len() > 64 {
                return Err(McpError::rate_limited(format!("report name {report:?} is too long"))); //~ tool_failure_as_protocol_error
                //~^ legacy_error_code
            }
            Err(McpError::new(ErrorKind::Unavailable, format!("the export service is down; {report} was not exported"))) //~ tool_failure_as_protocol_error
            //~^ legacy_error_code
        }
    }

    fn read_resource<'a>(&'a self, uri: &'a str, ctx: &'a RequestContext) -> impl Future<Output = McpResult<ResourceResult>> + 'a {
        let uri = uri.to_string();
        async move {
            if ctx.subject().is_none() {
                return Err(McpError::permission_denied(format!("{uri} needs an authenticated principal"))); //~ legacy_error_code
            }
            signed_in(ctx, &uri)?;
            Err(McpError::resource_not_found(&uri))
        }
    }

    fn get_prompt<'a>(&'a self, name: &'a str, _args: Option<Value>, _ctx: &'a RequestContext) -> impl Future<Output = McpResult<PromptResult>> + 'a {
        let name = name.to_string();
        async move { Err(McpError::new(ErrorKind::Configuration, format!("prompt {name} is not configured on this server"))) } //~ legacy_error_code
    }
}
