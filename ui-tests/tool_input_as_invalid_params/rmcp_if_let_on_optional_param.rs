//@ rmcp = "1.8"
//@ dep: serde = { version = "1", features = ["derive"] }
//@ dep: schemars = "1"
// A helper's parameter declared `Option<&ScrollArg>`: the `s` of `if let Some(s) = scroll` is a
// `ScrollArg`, so `s.resolve()` is `ScrollArg::resolve` and its -32602 is the tool's. Another
// type's `resolve` of the same name, which only start-up code calls, is not tool code.
use rmcp::{
    handler::server::wrapper::Parameters,
    model::{CallToolResult, Content},
    tool, tool_router, ErrorData,
};

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct ScrollArg {
    pub pixels: Option<u32>,
    pub viewports: Option<u32>,
}

impl ScrollArg {
    pub fn resolve(&self) -> Result<u32, ErrorData> {
        match (self.pixels, self.viewports) {
            (Some(_), Some(_)) => Err(ErrorData::invalid_params("give `pixels` or `viewports`, not both", None)), //~ tool_input_as_invalid_params
            (Some(p), None) => Ok(p),
            (None, Some(v)) => Ok(v * 800),
            (None, None) => Ok(0),
        }
    }
}

pub struct StartupConfig {
    pub port: u32,
}

impl StartupConfig {
    pub fn resolve(&self) -> Result<u32, ErrorData> {
        if self.port == 0 {
            return Err(ErrorData::invalid_params("port must not be 0", None));
        }
        Ok(self.port)
    }
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Args {
    pub scroll: Option<ScrollArg>,
}

fn scroll_by(scroll: Option<&ScrollArg>) -> Result<u32, ErrorData> {
    let mut n = 0;
    if let Some(s) = scroll {
        n = s.resolve()?;
    }
    Ok(n)
}

pub fn start(config: Option<&StartupConfig>) -> u32 {
    match config {
        Some(c) => c.resolve().unwrap_or(8080),
        None => 8080,
    }
}

pub struct S;

#[tool_router]
impl S {
    #[tool(description = "scroll")]
    async fn scroll(&self, Parameters(a): Parameters<Args>) -> Result<CallToolResult, ErrorData> {
        let n = scroll_by(a.scroll.as_ref())?;
        Ok(CallToolResult::success(vec![Content::text(n.to_string())]))
    }
}
