//@ rmcp = "1.8"
// A crate's `Result` alias (`type TimeResult<T> = Result<T, TimeError>`) declares the error enum
// as `Result<T, TimeError>` would: a `?` on `clock.now(..)` converts only the variants `now` can
// return, through the `From<TimeError>` arm each gets. Here that is `InvalidTimezone`, -32602
// (MCP006); the `ResourceNotFound` arm (-32002), which only `read_resource` builds, is not this
// tool's (a matcher of the alias by name would attach every arm to the `?`).
use rmcp::{
    handler::server::wrapper::Parameters, model::*, schemars, tool, tool_router,
    ErrorData as McpError,
};
use serde::Deserialize;

pub enum TimeError {
    InvalidTimezone(String),
    ResourceNotFound(String),
}

pub type TimeResult<T> = Result<T, TimeError>;

impl From<TimeError> for McpError {
    fn from(e: TimeError) -> Self {
        match e {
            TimeError::InvalidTimezone(tz) => {
                McpError::invalid_params(format!("unknown timezone {tz}; use an IANA name such as Europe/Paris"), None)
            }
            TimeError::ResourceNotFound(uri) => McpError::resource_not_found(format!("no resource {uri}"), None),
        }
    }
}

pub struct Clock;

impl Clock {
    fn zone(&self, name: &str) -> TimeResult<String> {
        if name.contains('/') {
            Ok(name.to_string())
        } else {
            Err(TimeError::InvalidTimezone(name.to_string()))
        }
    }

    pub fn now(&self, name: &str) -> TimeResult<String> {
        let zone = self.zone(name)?;
        Ok(format!("12:00 in {zone}"))
    }

    pub fn resource(&self, uri: &str) -> TimeResult<String> {
        Err(TimeError::ResourceNotFound(uri.to_string()))
    }
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct NowArgs {
    pub timezone: String,
}

pub struct TimeServer {
    clock: Clock,
}

#[tool_router]
impl TimeServer {
    #[tool(description = "Current time in a timezone")]
    async fn now(&self, Parameters(args): Parameters<NowArgs>) -> Result<CallToolResult, McpError> {
        let text = self.clock.now(&args.timezone)?; //~ tool_input_as_invalid_params
        Ok(CallToolResult::success(vec![Content::text(text)]))
    }
}

impl TimeServer {
    pub async fn read_resource(&self, uri: &str) -> Result<String, McpError> {
        Ok(self.clock.resource(uri)?)
    }
}
