//@ dep: tower-mcp = "0.25"
//@ dep: serde = "1"
//@ dep: schemars = "1"
// tower-mcp resource and prompt handlers (`ResourceBuilder`, `ResourceTemplateBuilder` and
// `PromptBuilder` `.handler(..)` / `.handler_with_context(..)`) answer their `Err` as a JSON-RPC
// error (`Error::into_json_rpc_error`, resource.rs ~406, prompt.rs ~337): the codes they pick
// are judged. The same codes in a `.handler(..)` tool only ride in an isError result's text.
use schemars::JsonSchema;
use serde::Deserialize;
use tower_mcp::{
    CallToolResult, Error, GetPromptResult, JsonRpcError, McpErrorCode, Prompt, PromptBuilder,
    ReadResourceResult, RequestContext, Resource, ResourceBuilder, ResourceTemplate,
    ResourceTemplateBuilder, Tool, ToolBuilder,
};

pub fn queue() -> Resource {
    ResourceBuilder::new("jobs://queue")
        .name("Queue")
        .handler_with_context(|ctx: RequestContext| async move {
            if ctx.extensions().is_empty() {
                //~v legacy_error_code
                return Err(JsonRpcError::mcp_error(McpErrorCode::Forbidden, "operators only").into());
            }
            Ok(ReadResourceResult::text("jobs://queue", "[]"))
        })
        .build()
}

pub fn workers() -> Resource {
    ResourceBuilder::new("jobs://workers")
        .name("Workers")
        .handler(|| async move {
            match probe() {
                Ok(info) => Ok(ReadResourceResult::text("jobs://workers", info)),
                Err(_) => Err(JsonRpcError::request_timeout("the probe did not answer within 3 s").into()), //~ legacy_error_code
            }
        })
        .build()
}

pub fn artifact() -> ResourceTemplate {
    ResourceTemplateBuilder::new("jobs://artifacts/{id}")
        .name("Artifact")
        .handler(|uri: String, _vars: std::collections::HashMap<String, String>| async move {
            if uri.ends_with("quarantined") {
                //~v reserved_error_code
                return Err(Error::JsonRpc(JsonRpcError { code: -32050, message: format!("{uri} is quarantined"), data: None }));
            }
            Err(Error::JsonRpc(JsonRpcError::invalid_params(format!("no artifact at {uri}"))))
        })
}

pub fn triage() -> Prompt {
    PromptBuilder::new("triage")
        .description("Triage a failed job")
        .handler(|_args: std::collections::HashMap<String, String>| async move {
            if probe().is_err() {
                return Err(Error::internal("Internal error")); //~ vague_error_text
            }
            Ok(GetPromptResult::user_message("Look at the log"))
        })
        .build()
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct RunInput {
    job: String,
}

/// A tool's `Err` is an isError result: its code goes nowhere.
pub fn run() -> Tool {
    ToolBuilder::new("run")
        .description("Run a job")
        .handler(|input: RunInput| async move {
            if input.job.is_empty() {
                return Err(JsonRpcError::request_timeout("the runner did not answer").into());
            }
            Ok(CallToolResult::text(input.job))
        })
        .build()
}

fn probe() -> Result<String, std::io::Error> {
    std::fs::read_to_string("/proc/version")
}
