//@ rmcp = "0.3"
// `#[tool]` fns whose `Err` becomes an isError result: `Err(())` has no content at all (`()` is
// IntoContents since 0.2 and yields `vec![]`), and `Err(String::new())` one empty text block.
use std::collections::HashMap;
use std::sync::Arc;

use rmcp::{
    handler::server::tool::{Parameters, ToolRouter},
    schemars, tool, tool_handler, tool_router, ServerHandler,
};
use serde::Deserialize;
use tokio::sync::Mutex;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct KeyArgs {
    pub key: String,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct PutArgs {
    pub key: String,
    pub value: String,
}

#[derive(Clone, Default)]
pub struct Cache {
    entries: Arc<Mutex<HashMap<String, String>>>,
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Cache {
    #[tool(description = "Store a value")]
    async fn put(&self, Parameters(PutArgs { key, value }): Parameters<PutArgs>) -> Result<String, ()> {
        if value.len() > 4096 {
            return Err(()); //~ empty_error_content
        }
        self.entries.lock().await.insert(key.clone(), value);
        Ok(format!("stored {key}"))
    }

    #[tool(description = "Copy a value to a second key")]
    async fn copy(&self, Parameters(PutArgs { key, value: target }): Parameters<PutArgs>) -> Result<String, String> {
        let mut entries = self.entries.lock().await;
        if entries.contains_key(&target) {
            return Err(String::new()); //~ empty_error_content
        }
        let value = entries.get(&key).cloned().ok_or_else(|| format!("no value stored under {key}"))?;
        entries.insert(target.clone(), value);
        Ok(format!("copied {key} to {target}"))
    }

    #[tool(description = "Delete a value")]
    async fn delete(&self, Parameters(KeyArgs { key }): Parameters<KeyArgs>) -> Result<String, String> {
        match self.entries.lock().await.remove(&key) {
            Some(_) => Ok(format!("deleted {key}")),
            None => Err(format!("no value stored under {key}")),
        }
    }
}

#[tool_handler]
impl ServerHandler for Cache {}
