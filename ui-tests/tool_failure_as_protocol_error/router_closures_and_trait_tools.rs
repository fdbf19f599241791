//@ rmcp = "1.8"
// The other ways to define a tool in rmcp 1.x: a `ToolRoute::new_dyn` closure and
// `SyncTool`/`AsyncTool` implementations (whose `Err` is always a protocol error: the fix there is
// to move the tool to a `#[tool]` fn that can return `CallToolResult::error`).
use std::borrow::Cow;
use std::sync::Arc;

use rmcp::{
    handler::server::{
        router::tool::{AsyncTool, SyncTool, ToolBase, ToolRoute, ToolRouter},
        tool::ToolCallContext,
    },
    model::{CallToolResult, Content, Tool},
    schemars, ErrorData as McpError,
};
use serde::{Deserialize, Serialize};

pub struct Inventory {
    items: std::sync::Mutex<Vec<String>>,
    client: reqwest::Client,
}

impl Inventory {
    pub fn router() -> ToolRouter<Self> {
        ToolRouter::new()
            .with_route(ToolRoute::new_dyn(
                Tool::new("restock", "Order more of an item", Arc::new(Default::default())),
                |ctx: ToolCallContext<'_, Self>| {
                    Box::pin(async move {
                        let item = ctx
                            .arguments
                            .as_ref()
                            .and_then(|a| a.get("item"))
                            .and_then(|v| v.as_str())
                            .unwrap_or_default()
                            .to_string();
                        let response = ctx
                            .service
                            .client
                            .post("https://supplier.example/orders")
                            .json(&serde_json::json!({ "item": item }))
                            .send()
                            .await
                            .map_err(|e| McpError::internal_error(format!("supplier unreachable: {e}"), None))?; //~ tool_failure_as_protocol_error
                        Ok(CallToolResult::success(vec![Content::text(format!("ordered, status {}", response.status()))]))
                    })
                },
            ))
            .with_sync_tool::<CountItems>()
            .with_async_tool::<PriceLookup>()
    }
}

#[derive(Deserialize, schemars::JsonSchema, Default)]
pub struct CountInput {
    pub prefix: String,
}

#[derive(Serialize, schemars::JsonSchema)]
pub struct CountOutput {
    pub count: usize,
}

pub struct CountItems;

impl ToolBase for CountItems {
    type Parameter = CountInput;
    type Output = CountOutput;
    type Error = McpError;

    fn name() -> Cow<'static, str> {
        "count_items".into()
    }
}

impl SyncTool<Inventory> for CountItems {
    fn invoke(service: &Inventory, param: CountInput) -> Result<CountOutput, McpError> {
        if param.prefix.len() > 64 {
            return Err(McpError::internal_error("prefix longer than 64 characters", None)); //~ tool_failure_as_protocol_error
        }
        // A poisoned lock is a genuine server fault: the model cannot fix it.
        let items = service.items.lock().map_err(|_| McpError::internal_error("inventory lock poisoned", None))?;
        Ok(CountOutput {
            count: items.iter().filter(|i| i.starts_with(&param.prefix)).count(),
        })
    }
}

#[derive(Deserialize, schemars::JsonSchema, Default)]
pub struct PriceInput {
    pub sku: String,
}

#[derive(Serialize, Deserialize, schemars::JsonSchema)]
pub struct PriceOutput {
    pub cents: u64,
}

pub struct PriceLookup;

impl ToolBase for PriceLookup {
    type Parameter = PriceInput;
    type Output = PriceOutput;
    type Error = McpError;

    fn name() -> Cow<'static, str> {
        "price".into()
    }
}

impl AsyncTool<Inventory> for PriceLookup {
    async fn invoke(service: &Inventory, param: PriceInput) -> Result<PriceOutput, McpError> {
        let url = format!("https://supplier.example/prices/{}", param.sku);
        let price: PriceOutput = service
            .client
            .get(url)
            .send()
            .await
            .map_err(|e| McpError::internal_error(e.to_string(), None))? //~ tool_failure_as_protocol_error
            .json()
            .await
            .map_err(|e| McpError::internal_error(format!("unexpected price format for {}: {e}", param.sku), None))?; //~ tool_failure_as_protocol_error
        Ok(price)
    }
}
