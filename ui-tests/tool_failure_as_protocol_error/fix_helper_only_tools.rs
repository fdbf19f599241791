//@ rmcp = "2.2"
// rmcp 2.x. A helper that builds the protocol error and that only tools use is rewritten to build
// the isError result, and each tool's use of it to return that result: `.map_err(internal)?` and
// `.ok_or_else(|| missing(..))?` become a `match` whose error arm returns `Ok(helper(..))`,
// `return Err(out_of_stock(id))` becomes `return Ok(..)`. The tools keep their signatures. A
// `From<StoreError> for McpError` impl reached by `?` becomes `From<StoreError> for
// CallToolResult`, each `?` a `match` returning `Ok(e.into())` (MaybeIncorrect: a conversion
// whose operand's type the source does not show may use the impl too), as is a `pub` helper
// (another crate may call it).
use rmcp::{
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{CallToolResult, ContentBlock},
    schemars, tool, tool_router, ErrorData as McpError,
};
use serde::Deserialize;

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("bucket {0} does not exist")]
    NoBucket(String),
}

impl From<StoreError> for McpError {
    fn from(e: StoreError) -> Self {
        McpError::internal_error(e.to_string(), None) //~ tool_failure_as_protocol_error
    }
}

fn internal(e: std::io::Error) -> McpError {
    McpError::internal_error(format!("storage failed: {e}"), None) //~ tool_failure_as_protocol_error
}

pub fn out_of_stock(id: u64) -> McpError {
    McpError::internal_error(format!("product {id} is out of stock"), None) //~ tool_failure_as_protocol_error
}

fn missing(key: &str) -> McpError {
    McpError::internal_error(format!("no object {key}"), None) //~ tool_failure_as_protocol_error
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct ObjectArgs {
    pub bucket: String,
    pub key: String,
}

pub struct Store {
    root: std::path::PathBuf,
    stock: std::collections::HashMap<u64, u32>,
    objects: std::collections::HashMap<String, String>,
    tool_router: ToolRouter<Self>,
}

impl Store {
    fn bucket(&self, name: &str) -> Result<std::path::PathBuf, StoreError> {
        let dir = self.root.join(name);
        if !dir.is_dir() {
            return Err(StoreError::NoBucket(name.to_string()));
        }
        Ok(dir)
    }
}

#[tool_router]
impl Store {
    #[tool(description = "Read one object")]
    async fn read(&self, Parameters(args): Parameters<ObjectArgs>) -> Result<CallToolResult, McpError> {
        let dir = self.bucket(&args.bucket)?;
        let text = std::fs::read_to_string(dir.join(&args.key)).map_err(internal)?;
        Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
    }

    #[tool(description = "Delete one object")]
    async fn delete(&self, Parameters(args): Parameters<ObjectArgs>) -> Result<CallToolResult, McpError> {
        std::fs::remove_file(self.root.join(&args.bucket).join(&args.key)).map_err(internal)?;
        Ok(CallToolResult::success(vec![ContentBlock::text("deleted")]))
    }

    #[tool(description = "Order a product")]
    async fn order(&self, Parameters(id): Parameters<u64>) -> Result<CallToolResult, McpError> {
        if self.stock.get(&id) == Some(&0) {
            return Err(out_of_stock(id));
        }
        Ok(CallToolResult::success(vec![ContentBlock::text("ordered")]))
    }

    #[tool(description = "Look an object up")]
    async fn lookup(&self, Parameters(args): Parameters<ObjectArgs>) -> Result<CallToolResult, McpError> {
        let text = self.objects.get(&args.key).ok_or_else(|| missing(&args.key))?;
        Ok(CallToolResult::success(vec![ContentBlock::text(text.clone())]))
    }
}
