//@ rmcp = "0.7"
// `#[tool]` fns returning `String` answer with the text they return: a tool that returns a
// helper's output rendered by `to_json()` answers every failure the helper folds into an
// `Output::Error { error }` variant, and the `{"error": ..}` that `to_json` falls back to, as
// success. Not reported: a helper whose outputs are all success values, and a fallback that only
// a log line reads.
use rmcp::{
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    schemars, tool, tool_handler, tool_router, ServerHandler,
};
use serde::{Deserialize, Serialize};

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct CrateArgs {
    pub name: String,
}

#[derive(Debug, Serialize)]
#[serde(tag = "status")]
pub enum CacheOutput {
    #[serde(rename = "success")]
    Success { message: String },
    #[serde(rename = "error")]
    Error { error: String },
}

impl CacheOutput {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self)
            .unwrap_or_else(|_| r#"{"error":"Failed to serialize response"}"#.to_string()) //~ failure_as_success
    }
}

#[derive(Debug, Serialize)]
pub struct SizeOutput {
    pub bytes: u64,
}

impl SizeOutput {
    pub fn to_json(&self) -> String {
        match serde_json::to_string(self) {
            Ok(json) => json,
            Err(e) => {
                tracing::warn!("cannot serialize size: {e}");
                String::new()
            }
        }
    }
}

#[derive(Clone, Default)]
pub struct CacheTools;

impl CacheTools {
    pub async fn cache_crate(&self, args: CrateArgs) -> CacheOutput {
        match std::fs::create_dir_all(format!("/tmp/cache/{}", args.name)) {
            Ok(()) => CacheOutput::Success {
                message: format!("cached {}", args.name),
            },
            Err(e) => CacheOutput::Error { //~ failure_as_success
                error: format!("cannot cache {}: {e}", args.name),
            },
        }
    }

    pub async fn size(&self, args: CrateArgs) -> SizeOutput {
        SizeOutput {
            bytes: args.name.len() as u64,
        }
    }
}

#[derive(Clone)]
pub struct Docs {
    cache_tools: CacheTools,
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Docs {
    #[tool(description = "Cache a crate's sources")]
    pub async fn cache_crate(&self, Parameters(args): Parameters<CrateArgs>) -> String {
        let output = self.cache_tools.cache_crate(args).await;
        output.to_json()
    }

    #[tool(description = "Size of a crate's name")]
    pub async fn size(&self, Parameters(args): Parameters<CrateArgs>) -> String {
        self.cache_tools.size(args).await.to_json()
    }
}

#[tool_handler]
impl ServerHandler for Docs {}
