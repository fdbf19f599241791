//@ rmcp = "1.8"
//@ dep: serde = { version = "1", features = ["derive"] }
//@ dep: schemars = "1"
// A helper's -32602 that its caller replaces with an error value of its own, made of the text
// (`.map_err(|e| CoreError::Other(e.message.to_string()))`), never reaches the wire: the code
// sent is the one the tool's mapping picks for that value (MCP001 there). Handed on whole
// (`CoreError::Rpc(e)`), the helper's own -32602 goes on and is reported at the helper.
use rmcp::{
    handler::server::wrapper::{Json, Parameters},
    tool, tool_router, ErrorData,
};

#[derive(Debug)]
pub enum CoreError {
    Other(String),
    Rpc(ErrorData),
}

impl std::fmt::Display for CoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CoreError::Other(s) => write!(f, "{s}"),
            CoreError::Rpc(e) => write!(f, "{}", e.message),
        }
    }
}

pub fn map_core(e: CoreError) -> ErrorData {
    match e {
        CoreError::Rpc(e) => e,
        other => ErrorData::internal_error(other.to_string(), None), //~ tool_failure_as_protocol_error
    }
}

fn build(fps: Option<u32>) -> Result<u32, ErrorData> {
    if fps == Some(0) {
        return Err(ErrorData::invalid_params("`fps` must be at least 1", None));
    }
    Ok(fps.unwrap_or(5))
}

fn scale(zoom: Option<u32>) -> Result<u32, ErrorData> {
    if zoom == Some(0) {
        return Err(ErrorData::invalid_params("`zoom` must be at least 1", None)); //~ tool_input_as_invalid_params
    }
    Ok(zoom.unwrap_or(1))
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Args {
    pub fps: Option<u32>,
    pub zoom: Option<u32>,
}

#[derive(serde::Serialize, schemars::JsonSchema)]
pub struct Out {
    pub n: u32,
}

async fn record(a: Args) -> Result<Out, CoreError> {
    let n = build(a.fps).map_err(|e| CoreError::Other(e.message.to_string()))?;
    let z = scale(a.zoom).map_err(|e| CoreError::Rpc(e))?;
    Ok(Out { n: n * z })
}

pub struct S;

#[tool_router]
impl S {
    #[tool(description = "record")]
    async fn rec(&self, Parameters(a): Parameters<Args>) -> Result<Json<Out>, ErrorData> {
        record(a).await.map(Json).map_err(map_core)
    }
}
