//@ dep: turbomcp = "3.6"
//@ dep: tokio = "1"
// turbomcp 3.x: in a `#[server]` `#[tool]` fn every `Err(McpError)` becomes an isError result
// whose only text is `e.message`, so `McpError::internal("")` (or any constructor given an empty
// message) is an isError result with nothing to read, as is `Err(String::new())` from a tool
// returning `Result<T, String>`. `ToolResult::error("")` and a `ToolResult` literal with empty
// `content` and `is_error: Some(true)` (it derives `Default`, so `..Default::default()` works)
// are the explicit forms. `ToolResult::empty()` (a success) is not this lint.
use std::collections::HashMap;
use std::sync::Arc;

use tokio::sync::RwLock;
use turbomcp::prelude::*;

#[derive(Clone, Default)]
struct Kv {
    store: Arc<RwLock<HashMap<String, String>>>,
}

#[server(name = "kv", version = "1.0.0")]
impl Kv {
    /// Read a key.
    #[tool(read_only = true)]
    async fn get(&self, key: String) -> McpResult<String> {
        match self.store.read().await.get(&key) {
            Some(value) => Ok(value.clone()),
            None => Err(McpError::internal("")), //~ empty_error_content
        }
    }

    /// Write a key.
    #[tool]
    async fn set(&self, key: String, value: String) -> Result<String, String> {
        if key.is_empty() {
            return Err(String::new()); //~ empty_error_content
        }
        self.store.write().await.insert(key.clone(), value);
        Ok(format!("stored {key}"))
    }

    /// Delete a key.
    #[tool(destructive = true)]
    async fn delete(&self, key: String) -> McpResult<ToolResult> {
        if self.store.write().await.remove(&key).is_none() {
            return Ok(ToolResult::error("")); //~ empty_error_content
        }
        Ok(ToolResult::empty())
    }

    /// Rename a key.
    #[tool]
    async fn rename(&self, from: String, to: String) -> McpResult<ToolResult> {
        let mut store = self.store.write().await;
        let Some(value) = store.remove(&from) else {
            return Ok(ToolResult { //~ empty_error_content
                content: vec![],
                is_error: Some(true),
                ..Default::default()
            });
        };
        store.insert(to.clone(), value);
        Ok(ToolResult::text(format!("renamed {from} to {to}")))
    }

    /// Copy a key.
    #[tool]
    async fn copy(&self, from: String, to: String) -> McpResult<String> {
        let mut store = self.store.write().await;
        let value = store.get(&from).cloned().ok_or_else(|| McpError::invalid_params(format!("no key {from}; use list_keys to see the keys")))?;
        store.insert(to.clone(), value);
        Ok(format!("copied {from} to {to}"))
    }
}
