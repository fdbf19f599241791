//! Reply drafts: a model builds a reply over several calls, then sends it.
//! Drafts live in memory behind `dr_...` handles for 30 minutes.

use std::{
    collections::HashMap,
    sync::Mutex,
    time::{Duration, Instant, SystemTime, UNIX_EPOCH},
};

use rmcp::{
    ErrorData as McpError,
    model::{CallToolResult, ContentBlock, JsonObject},
};

use crate::{
    args::{req_str, ticket_id},
    client::RelayClient,
    error::upstream_error,
};

const DRAFT_TTL: Duration = Duration::from_secs(30 * 60);

pub struct Draft {
    ticket_id: String,
    body: String,
    created: Instant,
}

#[derive(Default)]
pub struct DraftStore {
    drafts: Mutex<HashMap<String, Draft>>,
}

fn new_handle() -> String {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or_default();
    format!("dr_{:x}", nanos ^ 0x5bd1_e995_u128.wrapping_mul(nanos >> 7))
}

/// Routes the `draft_*` tools.
pub async fn dispatch(
    store: &DraftStore,
    client: &RelayClient,
    name: &str,
    args: &JsonObject,
) -> Result<CallToolResult, McpError> {
    match name {
        "draft_start" => start(store, args),
        "draft_append" => append(store, args),
        "draft_send" => send(store, client, args).await,
        other => Ok(CallToolResult::error(vec![ContentBlock::text(format!("unknown draft tool {other}"))])),
    }
}

fn start(store: &DraftStore, args: &JsonObject) -> Result<CallToolResult, McpError> {
    let ticket_id = ticket_id(args)?;
    let handle = new_handle();
    let mut drafts = store.drafts.lock().map_err(|_| McpError::internal_error("draft store lock poisoned", None))?;
    drafts.retain(|_, d| d.created.elapsed() < DRAFT_TTL);
    drafts.insert(handle.clone(), Draft { ticket_id: ticket_id.clone(), body: String::new(), created: Instant::now() });
    Ok(CallToolResult::success(vec![ContentBlock::text(format!(
        "draft {handle} started for {ticket_id}; it expires in 30 minutes"
    ))]))
}

fn append(store: &DraftStore, args: &JsonObject) -> Result<CallToolResult, McpError> {
    let handle = req_str(args, "draft_id")?;
    let text = req_str(args, "text")?;
    let mut drafts = store.drafts.lock().unwrap();
    let expired = drafts.get(handle).map(|d| d.created.elapsed() >= DRAFT_TTL);
    match expired {
        Some(true) => {
            drafts.remove(handle);
            Ok(CallToolResult::error(vec![ContentBlock::text(format!("draft {handle} expired after 30 minutes; call draft_start again"))]))
        }
        Some(false) => {
            let draft = drafts.get_mut(handle).expect("checked above");
            draft.body.push_str(text);
            Ok(CallToolResult::success(vec![ContentBlock::text(format!("draft {handle} is {} characters", draft.body.len()))]))
        }
        None => Ok(CallToolResult::success(vec![ContentBlock::text(format!("draft {handle} not found"))])),
    }
}

async fn send(store: &DraftStore, client: &RelayClient, args: &JsonObject) -> Result<CallToolResult, McpError> {
    let handle = req_str(args, "draft_id")?;
    let taken = {
        let mut drafts = store.drafts.lock().map_err(|_| McpError::internal_error("draft store lock poisoned", None))?;
        drafts.remove(handle)
    };
    let Some(draft) = taken else {
        return Err(McpError::invalid_params(format!("unknown draft_id {handle}"), None));
    };
    if draft.body.trim().is_empty() {
        return Ok(CallToolResult::error(vec![ContentBlock::text("")]));
    }
    client.add_comment(&draft.ticket_id, &draft.body, false).await.map_err(|e| upstream_error(&e))?;
    Ok(CallToolResult::success(vec![ContentBlock::text(format!("reply sent on {}", draft.ticket_id))]))
}
