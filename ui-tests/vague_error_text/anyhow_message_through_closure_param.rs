//@ rmcp = "3.11"
//@ dep: anyhow = "1"
//@ dep: serde_json = "1"
//@ dep: serde = { version = "1", features = ["derive"] }
//@ dep: schemars = "1"
// A tool hands a helper a closure (`self.run(move |storage| storage.get(&id))`) and the helper
// answers what its Fn-typed parameter returns (`match op(storage) { Err(e) => .. }`): the
// closure is called with the type the parameter's bound names (`impl FnOnce(Storage) -> ..`,
// `F: FnOnce(&Storage) -> ..`), so an untyped `|storage|` has that type, and the error shown is
// that of the crate fn the closure calls. The message of an anyhow error shown whole as the
// `"error"` member of a JSON answer (`json!({"error": format!("{e:#}")})`) counts as shown
// whole too.
use anyhow::{ensure, Result};
use rmcp::{
    handler::server::wrapper::Parameters,
    model::{CallToolResult, ContentBlock},
    tool, tool_router, ErrorData,
};
use serde_json::{json, Value};

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct P {
    pub id: String,
}

#[derive(Clone)]
pub struct Storage;

impl Storage {
    pub fn get(&self, id: &str) -> Result<Value> {
        ensure!(id.bytes().all(|b| b.is_ascii_alphanumeric()), "Invalid documentId"); //~ vague_error_text
        Ok(json!({ "id": id }))
    }

    pub fn put(&self, id: &str) -> Result<Value> {
        ensure!(!id.is_empty(), "Invalid workspaceId"); //~ vague_error_text
        Ok(json!({ "id": id }))
    }

    pub fn tag(&self, id: &str) -> Result<Value> {
        // Names the value: specific.
        ensure!(id.len() < 64, "tag {id:?} is longer than 64 bytes");
        Ok(json!({ "tag": id }))
    }
}

/// Another type with a `get` of its own: an untyped closure parameter is not guessed to be it.
pub struct Cache;

impl Cache {
    pub fn get(&self, id: &str) -> Result<Value> {
        ensure!(!id.is_empty(), "Invalid cache entry");
        Ok(json!({ "cached": id }))
    }
}

pub struct S {
    storage: Storage,
}

impl S {
    async fn run(
        &self,
        op: impl FnOnce(Storage) -> Result<Value> + Send + 'static,
    ) -> Result<CallToolResult, ErrorData> {
        match op(self.storage.clone()) {
            Ok(v) => Ok(CallToolResult::structured(v)),
            Err(e) => Ok(CallToolResult::structured_error(json!({ "error": format!("{e:#}") }))),
        }
    }

    async fn run_ref<F>(&self, op: F) -> Result<CallToolResult, ErrorData>
    where
        F: FnOnce(&Storage) -> Result<Value>,
    {
        match op(&self.storage) {
            Ok(v) => Ok(CallToolResult::structured(v)),
            Err(e) => Ok(CallToolResult::error(vec![ContentBlock::text(e.to_string())])),
        }
    }

    /// Logs the error and answers with a text of its own: nothing of the closure's is shown.
    async fn run_quiet<F>(&self, op: F) -> Result<CallToolResult, ErrorData>
    where
        F: FnOnce(&Storage) -> Result<Value>,
    {
        match op(&self.storage) {
            Ok(v) => Ok(CallToolResult::structured(v)),
            Err(e) => {
                eprintln!("{e}");
                Ok(CallToolResult::error(vec![ContentBlock::text(
                    "the storage refused the request; check the id and try again",
                )]))
            }
        }
    }
}

#[tool_router]
impl S {
    #[tool(description = "read")]
    async fn read(&self, Parameters(p): Parameters<P>) -> Result<CallToolResult, ErrorData> {
        self.run(move |storage| storage.get(&p.id)).await
    }

    #[tool(description = "write")]
    async fn write(&self, Parameters(p): Parameters<P>) -> Result<CallToolResult, ErrorData> {
        self.run_ref(|s| s.put(&p.id)).await
    }

    #[tool(description = "tag")]
    async fn tag(&self, Parameters(p): Parameters<P>) -> Result<CallToolResult, ErrorData> {
        self.run_ref(|s| s.tag(&p.id)).await
    }

    #[tool(description = "write quietly")]
    async fn write_quietly(&self, Parameters(p): Parameters<P>) -> Result<CallToolResult, ErrorData> {
        self.run_quiet(|s| s.put(&p.id)).await
    }
}
