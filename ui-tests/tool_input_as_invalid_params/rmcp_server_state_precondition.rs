//@ rmcp = "3.11"
// A -32602 for a failure on the server's own state only (`self.forge.as_deref().ok_or_else(..)`:
// no forge configured at start-up) rejects no argument value: MCP006 stays silent (the precondition
// is no argument's, whatever the code says). The same lookup keyed by the model's argument
// (`self.forges.get(&args.name)`) is a value the tool rejects, and is reported.
use std::collections::HashMap;

use rmcp::{
    handler::server::wrapper::Parameters, model::*, schemars, tool, tool_router, ErrorData,
};
use serde::Deserialize;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct ForgeArgs {
    pub name: String,
}

pub trait Forge: Send + Sync {
    fn describe(&self) -> String;
}

pub struct Vcs {
    forge: Option<Box<dyn Forge>>,
    forges: HashMap<String, Box<dyn Forge>>,
}

#[tool_router]
impl Vcs {
    #[tool(description = "Describe the configured forge")]
    async fn forge_info(&self) -> Result<CallToolResult, ErrorData> {
        let forge = self.forge.as_deref().ok_or_else(|| {
            ErrorData::invalid_params("no forge is configured (pass --forge github|gitlab)", None)
        })?;
        Ok(CallToolResult::success(vec![Content::text(forge.describe())]))
    }

    #[tool(description = "Describe a named forge")]
    async fn named_forge(&self, Parameters(args): Parameters<ForgeArgs>) -> Result<CallToolResult, ErrorData> {
        let forge = self.forges.get(&args.name).ok_or_else(|| {
            ErrorData::invalid_params(format!("no forge named {}", args.name), None) //~ tool_input_as_invalid_params
        })?;
        Ok(CallToolResult::success(vec![Content::text(forge.describe())]))
    }
}
