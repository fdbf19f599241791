//@ rmcp = "0.8"
// `#[tool]` fns returning `Result<String, _>`: `Ok(..)` is a success result, so an `Ok` in the miss
// branch is the same mistake. A lookup in a helper that a tool calls counts as the tool's.
use std::collections::HashMap;
use std::sync::{Arc, RwLock};

use rmcp::{
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{CallToolResult, Content},
    schemars, tool, tool_handler, tool_router, ErrorData as McpError, ServerHandler,
};
use serde::Deserialize;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct CartArgs {
    /// The basket handle returned by `new_basket`, e.g. `bsk_a1b2c3`.
    pub basket: String,
    pub sku: Option<String>,
}

#[derive(Clone, Default)]
pub struct Shop {
    baskets: Arc<RwLock<HashMap<String, Vec<String>>>>,
    tool_router: ToolRouter<Self>,
}

impl Shop {
    fn basket_result(&self, basket: &str) -> CallToolResult {
        let baskets = self.baskets.read().expect("basket lock");
        match baskets.get(basket) {
            Some(items) => CallToolResult::success(vec![Content::text(items.join(", "))]),
            None => CallToolResult::success(vec![Content::text(format!("basket {basket} not found"))]), //~ stale_handle_as_success
        }
    }
}

#[tool_router]
impl Shop {
    #[tool(description = "Add an item to a basket")]
    async fn add_item(&self, Parameters(CartArgs { basket, sku }): Parameters<CartArgs>) -> Result<String, String> {
        let mut baskets = self.baskets.write().map_err(|_| "basket store unavailable".to_string())?;
        let Some(items) = baskets.get_mut(&basket) else {
            return Ok(format!("basket {basket} has expired")); //~ stale_handle_as_success
        };
        items.push(sku.unwrap_or_default());
        Ok(format!("{} items", items.len()))
    }

    #[tool(description = "Show a basket")]
    async fn show(&self, Parameters(CartArgs { basket, .. }): Parameters<CartArgs>) -> Result<CallToolResult, McpError> {
        Ok(self.basket_result(&basket))
    }
}

#[tool_handler]
impl ServerHandler for Shop {}
