//@ rmcp = "3.11"
//@ dep: serde = { version = "1", features = ["derive"] }
//@ dep: schemars = "1"
// A store method that answers `Result<Option<T>, _>` for an id (`store.get(&id)?`), whose miss the
// tool answers through a crate helper that builds a success result from the text it is handed
// (`text(format!("build {} not found", id))`): the helper's answer says what the call hands it,
// so the miss is answered as success there, as it would be written inline. A hit handed to the
// same helper is no miss.
use std::collections::HashMap;
use std::sync::Mutex;

use rmcp::{
    handler::server::wrapper::Parameters,
    model::{CallToolResult, ContentBlock},
    tool, tool_router, ErrorData as McpError,
};

fn text(t: String) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(t)])
}

pub struct Store {
    builds: Mutex<HashMap<String, String>>,
}

impl Store {
    pub fn get(&self, id: &str) -> Result<Option<String>, McpError> {
        let builds = self
            .builds
            .lock()
            .map_err(|_| McpError::internal_error("build store lock poisoned", None))?;
        Ok(builds.get(id).cloned())
    }
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct P {
    pub build_id: String,
}

pub struct Server {
    store: Store,
}

#[tool_router]
impl Server {
    #[tool(description = "Show a build by its id")]
    async fn show_build(&self, Parameters(p): Parameters<P>) -> Result<CallToolResult, McpError> {
        match self.store.get(&p.build_id)? {
            Some(build) => Ok(text(build)),
            None => Ok(text(format!("build {} not found", p.build_id))), //~ stale_handle_as_success
        }
    }
}
