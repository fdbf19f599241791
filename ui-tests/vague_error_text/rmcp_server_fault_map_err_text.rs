//@ rmcp = "0.8"
//@ dep: serde_json = "1"
//@ dep: thiserror = "2"
// A `.map_err(|_| ..)` on a crate fn that fails only on the server's own fault (its poisoned
// lock) runs there: -32603 is right for it (no MCP001), but its text is what the client reads,
// and "internal error" says nothing. On a crate fn that never fails at all the closure never
// runs: its text is not judged.
use std::sync::RwLock;

use rmcp::{
    model::{CallToolResult, Content},
    tool, tool_router, ErrorData as McpError,
};

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("store lock poisoned")]
    Poisoned,
}

pub struct Store {
    items: RwLock<Vec<u32>>,
}

impl Store {
    pub fn count(&self) -> Result<usize, StoreError> {
        Ok(self.items.read().map_err(|_| StoreError::Poisoned)?.len())
    }

    pub fn capacity(&self) -> Result<usize, StoreError> {
        Ok(64)
    }
}

pub struct Server {
    store: Store,
}

#[tool_router]
impl Server {
    #[tool(description = "Count the items")]
    async fn count(&self) -> Result<String, String> {
        let n = self.store.count().map_err(|_| "internal error".to_string())?; //~ vague_error_text
        Ok(n.to_string())
    }

    #[tool(description = "Count the items, as a result")]
    async fn count_result(&self) -> Result<CallToolResult, McpError> {
        let n = self
            .store
            .count()
            .map_err(|_| McpError::internal_error("Something went wrong", None))?; //~ vague_error_text
        Ok(CallToolResult::success(vec![Content::text(n.to_string())]))
    }

    #[tool(description = "The store's capacity")]
    async fn capacity(&self) -> Result<String, String> {
        let n = self.store.capacity().map_err(|_| "internal error".to_string())?;
        Ok(n.to_string())
    }
}
