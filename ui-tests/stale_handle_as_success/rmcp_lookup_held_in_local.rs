//@ rmcp = "1.8"
// A lookup's `Option` held in a local and tested later is the same miss as one tested inline,
// and so is a service's `Result<Option<T>>` unwrapped by `?` first (its `None` is the `Ok(None)`
// of a service asked for an id), whether the miss says "not found", `"not_found"`, "No X found
// with ID n" or "No X with id n found". Not reported: a search by title that finds nothing ("No account found with title
// .."), a stream's end (`next_line()?` answering `None`), an optional value that is no lookup.
use std::collections::HashMap;

use rmcp::handler::server::{router::tool::ToolRouter, wrapper::Parameters};
use rmcp::model::{CallToolResult, ContentBlock};
use rmcp::{schemars, tool, tool_router, ErrorData as McpError};
use serde::Deserialize;

#[derive(Deserialize, schemars::JsonSchema)]
pub struct ById {
    pub id: u64,
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct ByTitle {
    pub title: String,
}

pub struct Client;

impl Client {
    pub async fn instrument(&self, id: u64) -> Result<Option<String>, std::io::Error> {
        let known = std::fs::read_to_string("/var/lib/instruments")?;
        Ok(known.lines().find(|l| l.starts_with(&id.to_string())).map(str::to_string))
    }

    pub async fn account_by_title(&self, title: &str) -> Result<Option<String>, std::io::Error> {
        let known = std::fs::read_to_string("/var/lib/accounts")?;
        Ok(known.lines().find(|l| l.ends_with(title)).map(str::to_string))
    }

    pub async fn next_line(&self) -> Result<Option<String>, std::io::Error> {
        Ok(std::fs::read_to_string("/var/lib/feed")?.lines().next().map(str::to_string))
    }
}

fn upstream(e: std::io::Error) -> McpError {
    McpError::internal_error(e.to_string(), None) //~ tool_failure_as_protocol_error
}

pub struct Server {
    items: HashMap<u64, String>,
    client: Client,
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Server {
    #[tool(description = "Get an item by id")]
    async fn get_item(&self, Parameters(args): Parameters<ById>) -> Result<CallToolResult, McpError> {
        let hit = self.items.get(&args.id);
        if let Some(item) = hit.as_ref() {
            Ok(CallToolResult::success(vec![ContentBlock::text(item.to_string())]))
        } else {
            Ok(CallToolResult::success(vec![ContentBlock::text(format!("item {} not found", args.id))])) //~ stale_handle_as_success
        }
    }

    #[tool(description = "Get an instrument by id")]
    async fn get_instrument(&self, Parameters(args): Parameters<ById>) -> Result<CallToolResult, McpError> {
        match self.client.instrument(args.id).await.map_err(upstream)? {
            Some(i) => Ok(CallToolResult::success(vec![ContentBlock::text(i)])),
            None => Ok(CallToolResult::success(vec![ContentBlock::text(format!("instrument {} not found", args.id))])), //~ stale_handle_as_success
        }
    }

    #[tool(description = "Get an instrument by id, kept in a local")]
    async fn instrument_held(&self, Parameters(args): Parameters<ById>) -> Result<CallToolResult, McpError> {
        let instrument = self.client.instrument(args.id).await.map_err(upstream)?;
        if let Some(i) = instrument.as_ref() {
            Ok(CallToolResult::success(vec![ContentBlock::text(i.clone())]))
        } else {
            Ok(CallToolResult::success(vec![ContentBlock::text(format!("No instrument found with ID {}", args.id))])) //~ stale_handle_as_success
        }
    }

    #[tool(description = "Get a status by id")]
    async fn status(&self, Parameters(args): Parameters<ById>) -> Result<CallToolResult, McpError> {
        let row = self.client.instrument(args.id).await.map_err(upstream)?;
        let status = match row {
            Some(s) => serde_json::json!({ "status": s }),
            None => serde_json::json!({ "error": "not_found" }), //~ stale_handle_as_success
        };
        Ok(CallToolResult::success(vec![ContentBlock::text(status.to_string())]))
    }

    #[tool(description = "Find an account by title")]
    async fn find_account(&self, Parameters(args): Parameters<ByTitle>) -> Result<CallToolResult, McpError> {
        let account = self.client.account_by_title(&args.title).await.map_err(upstream)?;
        match account {
            Some(a) => Ok(CallToolResult::success(vec![ContentBlock::text(a)])),
            None => Ok(CallToolResult::success(vec![ContentBlock::text(format!("No account found with title '{}'", args.title))])),
        }
    }

    #[tool(description = "Get an instrument by id, the id inside the message")]
    async fn instrument_worded(&self, Parameters(args): Parameters<ById>) -> Result<CallToolResult, McpError> {
        match self.client.instrument(args.id).await.map_err(upstream)? {
            Some(i) => Ok(CallToolResult::success(vec![ContentBlock::text(i)])),
            None => Ok(CallToolResult::success(vec![ContentBlock::text(format!("No instrument with id {} found", args.id))])), //~ stale_handle_as_success
        }
    }

    #[tool(description = "Find an account by title, the title inside the message")]
    async fn find_account_worded(&self, Parameters(args): Parameters<ByTitle>) -> Result<CallToolResult, McpError> {
        match self.client.account_by_title(&args.title).await.map_err(upstream)? {
            Some(a) => Ok(CallToolResult::success(vec![ContentBlock::text(a)])),
            None => Ok(CallToolResult::success(vec![ContentBlock::text(format!("No account with title '{}' found", args.title))])),
        }
    }

    #[tool(description = "Read the next line")]
    async fn read_line(&self) -> Result<CallToolResult, McpError> {
        match self.client.next_line().await.map_err(upstream)? {
            Some(line) => Ok(CallToolResult::success(vec![ContentBlock::text(line)])),
            None => Ok(CallToolResult::success(vec![ContentBlock::text("end of input")])),
        }
    }

    #[tool(description = "Greet by title")]
    async fn greet(&self, Parameters(args): Parameters<ByTitle>) -> Result<CallToolResult, McpError> {
        let nick = args.title.strip_prefix("Dr. ");
        if let Some(n) = nick {
            Ok(CallToolResult::success(vec![ContentBlock::text(format!("Hello doctor {n}"))]))
        } else {
            Ok(CallToolResult::success(vec![ContentBlock::text(format!("Hello {}", args.title))]))
        }
    }
}
