//@ rmcp = "0.7"
// `#[tool]` fns returning `String` answer with the text they return: a tool that returns a
// helper's output rendered by `to_json()` answers every failure the helper folds into an
// `Output::Error { error }` variant, and the `{"error": ..}` that `to_json` falls back to, as
// success, also when the message is built from the error in a `let` first. Not reported: a helper
// whose outputs are all success values, a fallback that only a log line reads, and an `Err` arm
// whose answer neither uses the error nor says it failed.
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
    pub fn error(error: String) -> Self {
        CacheOutput::Error { error }
    }

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

    /// The message is built from the error in a `let` first.
    pub async fn remove(&self, args: CrateArgs) -> String {
        match std::fs::remove_dir_all(format!("/tmp/cache/{}", args.name)) {
            Ok(()) => format!("removed {}", args.name),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let message = format!("{} was not cached", args.name);
                CacheOutput::error(message).to_json()
            }
            Err(e) => {
                let message = format!("cannot remove {}: {e}", args.name);
                CacheOutput::error(message).to_json() //~ failure_as_success
            }
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

    #[tool(description = "Remove a crate from the cache")]
    pub async fn remove(&self, Parameters(args): Parameters<CrateArgs>) -> String {
        self.cache_tools.remove(args).await
    }

    #[tool(description = "Size of a crate's name")]
    pub async fn size(&self, Parameters(args): Parameters<CrateArgs>) -> String {
        self.cache_tools.size(args).await.to_json()
    }
}

#[tool_handler]
impl ServerHandler for Docs {}
