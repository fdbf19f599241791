//@ rmcp = "1.8"
//@ dep: serde = { version = "1", features = ["derive"] }
//@ dep: serde_json = "1"
//@ dep: schemars = "1"
// `match (self.width, self.height)` over two fields the generated schema leaves optional: the
// arm taken when one is given without the other is a rule across them, whatever its message
// says ("are required together"): the request matched the schema. The same words on a
// hand-parsed JSON object's missing member are the argument's shape (schema-level): silent.
use rmcp::{
    handler::server::wrapper::Parameters,
    model::{CallToolResult, Content},
    tool, tool_router, ErrorData,
};

#[derive(Debug, Clone, serde::Deserialize, schemars::JsonSchema)]
pub struct ViewportArg {
    pub width: Option<u32>,
    pub height: Option<u32>,
}

impl ViewportArg {
    pub fn resolve(&self) -> Result<u32, ErrorData> {
        match (self.width, self.height) {
            (Some(w), Some(h)) => Ok(w * h),
            (Some(_), None) | (None, Some(_)) => Err(ErrorData::invalid_params( //~ tool_input_as_invalid_params
                "both width and height are required together",
                None,
            )),
            (None, None) => Ok(0),
        }
    }
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Args {
    pub viewport: ViewportArg,
    pub raw: serde_json::Value,
}

fn raw_size(raw: &serde_json::Value) -> Result<u64, ErrorData> {
    match (raw.get("width"), raw.get("height")) {
        (Some(w), Some(h)) => Ok(w.as_u64().unwrap_or(0) * h.as_u64().unwrap_or(0)),
        _ => Err(ErrorData::invalid_params("width and height are required", None)),
    }
}

pub struct S;

#[tool_router]
impl S {
    #[tool(description = "viewport")]
    async fn viewport(&self, Parameters(a): Parameters<Args>) -> Result<CallToolResult, ErrorData> {
        let n = a.viewport.resolve()?;
        let m = raw_size(&a.raw)?;
        Ok(CallToolResult::success(vec![Content::text(format!("{n} {m}"))]))
    }
}
