//@ rmcp = "1.8"
// `.map_err(mcp_error)` on an `if .. else if .. else` value: the errors it maps are those of
// the branches that give the value; a branch that leaves early (`return ..;`) gives none. Here
// the `?` maps only `NotFound` (what `listing` and the last branch fail with), so it is
// -32603 (MCP001) and not also the -32602 of `Validation`, which only the early `return` of
// `schema` maps (MCP006 there). `mcp_error` is used outside tool context too (`start`), so each
// tool call is reported.
use rmcp::{
    handler::server::wrapper::Parameters, model::*, schemars, tool, tool_router,
    ErrorData as McpError,
};
use serde::Deserialize;

pub enum Error {
    Validation(String),
    NotFound(String),
}

fn mcp_error(error: Error) -> McpError {
    let code = match &error {
        Error::Validation(_) => ErrorCode::INVALID_PARAMS,
        _ => ErrorCode::INTERNAL_ERROR,
    };
    let message = match error {
        Error::Validation(m) | Error::NotFound(m) => m,
    };
    McpError::new(code, message, None)
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct Args {
    pub name: String,
}

pub struct Wrapper {
    tools: Vec<String>,
}

impl Wrapper {
    fn schema(&self, name: &str) -> Result<CallToolResult, Error> {
        if name.len() > 64 {
            return Err(Error::Validation(format!("tool name {name} is longer than 64 characters")));
        }
        Ok(CallToolResult::success(vec![Content::text(name.to_string())]))
    }

    fn listing(&self, name: &str) -> Result<String, Error> {
        self.tools
            .iter()
            .find(|t| name.starts_with(t.as_str()))
            .cloned()
            .ok_or_else(|| Error::NotFound(format!("no backend for {name}")))
    }
}

#[tool_router]
impl Wrapper {
    #[tool(description = "Describe a wrapped tool")]
    async fn describe(&self, Parameters(args): Parameters<Args>) -> Result<CallToolResult, McpError> {
        let text = if args.name.ends_with("_schema") {
            return self.schema(&args.name).map_err(mcp_error); //~ tool_input_as_invalid_params
        } else if args.name.ends_with("_list") {
            self.listing(&args.name)
        } else {
            Err(Error::NotFound(format!("no wrapper named {}", args.name)))
        }
        .map_err(mcp_error)?; //~ tool_failure_as_protocol_error
        Ok(CallToolResult::success(vec![Content::text(text)]))
    }
}

// Start-up code maps its own failures with the same helper.
pub fn start(e: Error) -> McpError {
    mcp_error(e)
}
