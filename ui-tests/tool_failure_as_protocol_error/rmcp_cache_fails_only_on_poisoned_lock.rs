//@ rmcp = "3.11"
//@ dep: serde = { version = "1", features = ["derive"] }
//@ dep: schemars = "1"
//@ dep: thiserror = "2"
// A cache of the server's own whose methods fail only when its lock is poisoned
// (`self.entries.read()?`, converted into its own `CachePoisoned` error): a tool that maps that
// failure to -32603 reports a server fault, rightly, whether through `map_err` or a `match`, and
// also when the lock's failure is mapped to text (`.read().map_err(|_| "..".to_string())?`).
// A store method that also fails on a file the model named is a tool failure there.
use std::collections::HashMap;
use std::sync::{PoisonError, RwLock};

use rmcp::{
    handler::server::wrapper::Parameters,
    model::{CallToolResult, ContentBlock},
    tool, tool_router, ErrorData as McpError,
};

#[derive(Debug, thiserror::Error)]
#[error("issue cache lock poisoned")]
pub struct CachePoisoned;

impl<T> From<PoisonError<T>> for CachePoisoned {
    fn from(_: PoisonError<T>) -> Self {
        CachePoisoned
    }
}

pub struct Cache {
    entries: RwLock<HashMap<String, String>>,
}

impl Cache {
    pub fn get(&self, key: &str) -> Result<Option<String>, CachePoisoned> {
        let entries = self.entries.read()?;
        Ok(entries.get(key).cloned())
    }

    pub fn put(&self, key: String, value: String) -> Result<(), CachePoisoned> {
        self.entries.write()?.insert(key, value);
        Ok(())
    }

    pub fn peek(&self, key: &str) -> Result<Option<String>, String> {
        let entries = self.entries.read().map_err(|_| "issue cache lock poisoned".to_string())?;
        Ok(entries.get(key).cloned())
    }

    pub fn load_text(&self, path: &str) -> Result<String, String> {
        let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
        let mut entries = self.entries.write().map_err(|_| "issue cache lock poisoned".to_string())?;
        entries.insert(path.to_string(), text.clone());
        Ok(text)
    }

    pub fn load(&self, path: &str) -> Result<String, CachePoisoned> {
        let text = std::fs::read_to_string(path).map_err(|_| CachePoisoned)?;
        self.entries.write()?.insert(path.to_string(), text.clone());
        Ok(text)
    }
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct P {
    pub key: String,
}

pub struct Server {
    cache: Cache,
}

#[tool_router]
impl Server {
    #[tool(description = "A cached value")]
    async fn cached(&self, Parameters(p): Parameters<P>) -> Result<CallToolResult, McpError> {
        let hit = self.cache.get(&p.key).map_err(|e| McpError::internal_error(e.to_string(), None))?;
        match self.cache.put(p.key.clone(), hit.clone().unwrap_or_default()) {
            Ok(()) => {}
            Err(e) => return Err(McpError::internal_error(e.to_string(), None)),
        }
        Ok(CallToolResult::success(vec![ContentBlock::text(hit.unwrap_or_default())]))
    }

    #[tool(description = "Load a file into the cache")]
    async fn load(&self, Parameters(p): Parameters<P>) -> Result<CallToolResult, McpError> {
        let text = self.cache.load(&p.key).map_err(|e| McpError::internal_error(e.to_string(), None))?; //~ tool_failure_as_protocol_error
        Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
    }

    #[tool(description = "A cached value, or nothing")]
    async fn peek(&self, Parameters(p): Parameters<P>) -> Result<CallToolResult, McpError> {
        let hit = match self.cache.peek(&p.key) {
            Ok(hit) => hit,
            Err(e) => return Err(McpError::internal_error(e, None)),
        };
        Ok(CallToolResult::success(vec![ContentBlock::text(hit.unwrap_or_default())]))
    }

    #[tool(description = "Load a file's text into the cache")]
    async fn load_text(&self, Parameters(p): Parameters<P>) -> Result<CallToolResult, McpError> {
        let text = match self.cache.load_text(&p.key) {
            Ok(text) => text,
            Err(e) => return Err(McpError::internal_error(e, None)), //~ tool_failure_as_protocol_error
        };
        Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
    }
}
