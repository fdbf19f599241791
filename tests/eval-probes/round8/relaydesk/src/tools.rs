//! Tool bodies. `handler::call_tool` picks one by name and hands it the
//! arguments; each returns the tool result or a protocol error.

use std::time::{SystemTime, UNIX_EPOCH};

use rmcp::{
    ErrorData as McpError, RoleServer,
    model::{
        CallToolResult, ClientCapabilities, ContentBlock, CreateMessageRequestParams, ErrorCode,
        JsonObject, SamplingMessage,
    },
    service::{ElicitationError, RequestContext},
};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::{
    args::{opt_str, opt_u64, req_str, ticket_id},
    client::{ApiError, RelayClient, Ticket},
    error::{TICKET_LOCKED, UPSTREAM_FAILURE, upstream_error},
};

const VALID_STATUSES: &[&str] = &["open", "pending", "solved", "closed"];
const PRIORITIES: &[&str] = &["low", "normal", "high", "urgent"];

#[derive(Debug, Serialize, Deserialize, rmcp::schemars::JsonSchema)]
pub struct CloseConfirmation {
    /// Set to true to close the ticket.
    pub confirm: bool,
}
rmcp::elicit_safe!(CloseConfirmation);

pub async fn get_ticket(client: &RelayClient, args: &JsonObject) -> Result<CallToolResult, McpError> {
    let id = ticket_id(args)?;
    match client.get_ticket(&id).await {
        Ok(ticket) => Ok(CallToolResult::success(vec![ContentBlock::json(&ticket)?])),
        Err(ApiError::NotFound(_)) => Ok(CallToolResult::error(vec![ContentBlock::text(format!("ticket {id} does not exist; use search_tickets to find it"))])),
        Err(e) => Err(upstream_error(&e)),
    }
}

pub async fn list_tickets(client: &RelayClient, args: &JsonObject) -> Result<CallToolResult, McpError> {
    let queue = req_str(args, "queue")?;
    let status = opt_str(args, "status");
    if let Some(s) = status {
        if !VALID_STATUSES.contains(&s) {
            return Err(McpError::invalid_params(format!("status must be one of {}, got {s:?}", VALID_STATUSES.join(", ")), None));
        }
    }
    let limit = opt_u64(args, "limit")?.unwrap_or(25);
    if limit > 100 {
        return Err(McpError::new(ErrorCode(-32602), format!("limit {limit} is above the maximum of 100"), None));
    }
    let page = client.list_tickets(queue, status, limit).await.map_err(|e| upstream_error(&e))?;
    if page.tickets.is_empty() {
        return Ok(CallToolResult::success(vec![ContentBlock::text(format!("queue {queue} has no matching tickets"))]));
    }
    let value = serde_json::to_value(&page).map_err(|e| McpError::internal_error(format!("encoding ticket page: {e}"), None))?;
    Ok(CallToolResult::structured(value))
}

pub async fn create_ticket(client: &RelayClient, args: &JsonObject) -> Result<CallToolResult, McpError> {
    let queue = req_str(args, "queue")?;
    let subject = req_str(args, "subject")?;
    let body = req_str(args, "body")?;
    let priority = opt_str(args, "priority").unwrap_or("normal");
    if !PRIORITIES.contains(&priority) {
        return Err(McpError::invalid_params(format!("priority {priority:?} is not one of low, normal, high, urgent"), None));
    }
    if subject.chars().count() > 200 {
        return Ok(CallToolResult::error(vec![ContentBlock::text("Invalid subject")]));
    }
    let ticket = match client.create_ticket(queue, subject, body, priority).await {
        Ok(t) => t,
        Err(ApiError::Status(422, msg)) => {
            return Ok(CallToolResult::error(vec![ContentBlock::text(format!("Relay rejected the ticket: {msg}"))]));
        }
        Err(e) => {
            return Ok(CallToolResult::success(vec![ContentBlock::text(json!({ "error": e.to_string() }).to_string())]));
        }
    };
    Ok(CallToolResult::success(vec![ContentBlock::text(format!("created {} in {}", ticket.id, ticket.queue))]))
}

pub async fn update_ticket_status(client: &RelayClient, args: &JsonObject) -> Result<CallToolResult, McpError> {
    let id = ticket_id(args)?;
    let status = req_str(args, "status")?;
    let ticket = match client.update_status(&id, status).await {
        Ok(t) => t,
        Err(ApiError::Status(409, msg)) => {
            return Err(McpError::new(TICKET_LOCKED, format!("ticket {id} is locked: {msg}"), None));
        }
        Err(e) => {
            return Err(McpError::internal_error(format!("Relay API error: {e}"), None));
        }
    };
    Ok(CallToolResult::success(vec![ContentBlock::text(format!("{} is now {}", ticket.id, ticket.status))]))
}

pub async fn add_comment(client: &RelayClient, args: &JsonObject) -> Result<CallToolResult, McpError> {
    let id = ticket_id(args)?;
    let body = req_str(args, "body")?;
    if body.trim().is_empty() {
        return Err(McpError::invalid_params("Invalid input", None));
    }
    let internal = args.get("internal").and_then(Value::as_bool).unwrap_or(false);
    client.add_comment(&id, body, internal).await.map_err(|e| upstream_error(&e))?;
    let kind = if internal { "internal note" } else { "public reply" };
    Ok(CallToolResult::success(vec![ContentBlock::text(format!("{kind} added to {id}"))]))
}

pub async fn assign_ticket(client: &RelayClient, args: &JsonObject) -> Result<CallToolResult, McpError> {
    let id = ticket_id(args)?;
    let wanted = req_str(args, "agent")?;
    let agents = client.list_agents().await.map_err(|e| upstream_error(&e))?;
    let Some(agent) = agents.iter().find(|a| a.handle == wanted || a.email == wanted) else {
        return Err(McpError::new(
            ErrorCode(-32004),
            format!("no agent with handle or e-mail {wanted:?}"),
            None,
        ));
    };
    let ticket = client.assign(&id, agent.id).await.map_err(|e| upstream_error(&e))?;
    Ok(CallToolResult::success(vec![ContentBlock::text(format!("{} assigned to {}", ticket.id, agent.handle))]))
}

pub async fn list_queues(client: &RelayClient) -> Result<CallToolResult, McpError> {
    let queues = client.list_queues().await.unwrap_or_default();
    Ok(CallToolResult::success(vec![ContentBlock::json(&queues)?]))
}

pub async fn apply_macro(client: &RelayClient, args: &JsonObject) -> Result<CallToolResult, McpError> {
    let id = ticket_id(args)?;
    let macro_id = args.get("macro_id").and_then(Value::as_u64).ok_or_else(|| McpError::invalid_params("missing required integer argument `macro_id`", None))?;
    match client.apply_macro(&id, macro_id).await {
        Ok(ticket) => Ok(CallToolResult::success(vec![ContentBlock::text(format!("macro {macro_id} applied; {} is {}", ticket.id, ticket.status))])),
        Err(ApiError::NotFound(what)) => Ok(CallToolResult::success(vec![ContentBlock::text(format!("{what} not found"))])),
        Err(e) => Err(upstream_error(&e)),
    }
}

pub async fn close_ticket(
    client: &RelayClient,
    args: &JsonObject,
    context: &RequestContext<RoleServer>,
) -> Result<CallToolResult, McpError> {
    let id = ticket_id(args)?;
    let can_elicit = context.client_capabilities().is_some_and(|c| c.elicitation.is_some());
    if !can_elicit {
        return Err(McpError::missing_required_client_capability(ClientCapabilities::builder().enable_elicitation().build()));
    }
    let answer = context.peer.elicit::<CloseConfirmation>(format!("Close ticket {id}? This notifies the requester.")).await;
    let confirmed = match answer {
        Ok(Some(c)) => c.confirm,
        Ok(None) | Err(ElicitationError::UserDeclined) | Err(ElicitationError::UserCancelled) => false,
        Err(e) => return Err(McpError::internal_error(format!("asking the user to confirm failed: {e}"), None)),
    };
    if !confirmed {
        return Ok(CallToolResult::error(vec![ContentBlock::text(format!("closing {id} was not confirmed by the user; nothing changed"))]));
    }
    client.update_status(&id, "closed").await.map_err(|e| upstream_error(&e))?;
    Ok(CallToolResult::success(vec![ContentBlock::text(format!("{id} closed"))]))
}

#[allow(deprecated)]
pub async fn summarize_ticket(
    client: &RelayClient,
    args: &JsonObject,
    context: &RequestContext<RoleServer>,
) -> Result<CallToolResult, McpError> {
    let id = ticket_id(args)?;
    if context.client_capabilities().and_then(|c| c.sampling).is_none() {
        return Err(McpError::internal_error("client does not support sampling", None));
    }
    let ticket = client.get_ticket(&id).await.map_err(|e| upstream_error(&e))?;
    let prompt = format!("Summarise this support ticket in three sentences.\nSubject: {}\n\n{}", ticket.subject, ticket.body);
    let params = CreateMessageRequestParams::new(vec![SamplingMessage::user_text(prompt)], 400);
    let reply = context.peer.create_message(params).await.map_err(|e| McpError::internal_error(format!("sampling request failed: {e}"), None))?;
    let Some(text) = reply.message.content.first().and_then(|b| b.as_text()).map(|t| t.text.clone()) else {
        return Ok(CallToolResult::error(vec![ContentBlock::text("error")]));
    };
    Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
}

pub async fn search_tickets(client: &RelayClient, args: &JsonObject) -> Result<CallToolResult, McpError> {
    let query = req_str(args, "query")?;
    if query.trim().chars().count() < 3 {
        return Err(McpError::invalid_params(format!("query must have at least 3 characters, got {query:?}"), None));
    }
    let page = match client.search(query.trim()).await {
        Ok(page) => page,
        Err(e) => {
            tracing::warn!("search {query:?}: {e}");
            return Ok(CallToolResult::success(vec![ContentBlock::text(format!("Failed to search tickets: {e}"))]));
        }
    };
    let lines: Vec<String> = page.tickets.iter().map(|t| format!("{} [{}] {}", t.id, t.status, t.subject)).collect();
    Ok(CallToolResult::success(vec![ContentBlock::text(format!("{} of {} hits:\n{}", lines.len(), page.total, lines.join("\n")))]))
}

fn breaches(tickets: &[Ticket], now: u64, window_secs: u64) -> (usize, usize) {
    let breached = tickets.iter().filter(|t| t.sla_due.is_some_and(|d| d <= now)).count();
    let soon = tickets.iter().filter(|t| t.sla_due.is_some_and(|d| d > now && d <= now + window_secs)).count();
    (breached, soon)
}

pub async fn sla_report(client: &RelayClient, args: &JsonObject) -> Result<CallToolResult, McpError> {
    let queue = req_str(args, "queue")?.to_string();
    let hours = opt_u64(args, "window_hours")?.unwrap_or(24);
    if hours == 0 || hours > 24 * 30 {
        return Ok(CallToolResult::error(vec![ContentBlock::text(format!("window_hours must be between 1 and 720, got {hours}"))]));
    }
    let page = client.list_tickets(&queue, Some("open"), 100).await.map_err(|e| McpError::new(ErrorCode(UPSTREAM_FAILURE), format!("SLA data unavailable: {e}"), None))?;
    let now = SystemTime::now().duration_since(UNIX_EPOCH).map_err(|e| McpError::internal_error(format!("system clock before 1970: {e}"), None))?.as_secs();
    let tickets = page.tickets;
    let (breached, soon) = tokio::task::spawn_blocking(move || breaches(&tickets, now, hours * 3600)).await.map_err(|e| McpError::internal_error(format!("SLA worker failed: {e}"), None))?;
    Ok(CallToolResult::success(vec![ContentBlock::text(format!(
        "queue {queue}: {breached} open tickets past SLA, {soon} more due within {hours} h"
    ))]))
}
