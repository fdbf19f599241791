//@ rmcp = "1.8"
// A crate fn passed by path to a combinator (`.map(parse_order)`, `.and_then(Self::parse)`) is
// called from the tool: its -32602 for a value the model gave is the tool's. A type's `FromStr`
// (`SortOrder::from_str(s)`) checks a value; decoding the arguments (`serde_json::from_str`) is
// what the schema answers. A parser only `main` uses is not tool code.
use std::str::FromStr;

use rmcp::{
    handler::server::wrapper::Parameters, model::*, schemars, tool, tool_router,
    ErrorData as McpError,
};

pub enum SortOrder {
    Asc,
    Desc,
}

impl FromStr for SortOrder {
    type Err = ();
    fn from_str(s: &str) -> Result<Self, ()> {
        match s {
            "asc" => Ok(SortOrder::Asc),
            "desc" => Ok(SortOrder::Desc),
            _ => Err(()),
        }
    }
}

#[derive(serde::Deserialize)]
pub struct Filter {
    pub tag: String,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct List {
    pub order: Option<String>,
    pub limit: Option<String>,
    pub filter: Option<String>,
}

fn parse_order(s: &str) -> Result<SortOrder, McpError> {
    SortOrder::from_str(s).map_err(|()| {
        McpError::invalid_params(format!("sort order '{s}' is not asc or desc"), None) //~ tool_input_as_invalid_params
    })
}

fn parse_limit(s: &str) -> Result<u32, McpError> {
    match s.parse::<u32>() {
        Ok(n) if n <= 100 => Ok(n),
        _ => Err(McpError::invalid_params(format!("limit '{s}' must be 0 to 100"), None)), //~ tool_input_as_invalid_params
    }
}

fn parse_filter(s: &str) -> Result<Filter, McpError> {
    serde_json::from_str(s)
        .map_err(|e| McpError::invalid_params(format!("filter is not a Filter object: {e}"), None))
}

fn parse_startup_order(s: &str) -> Result<SortOrder, McpError> {
    SortOrder::from_str(s).map_err(|()| McpError::invalid_params("bad default order", None))
}

pub struct Cards;

#[tool_router]
impl Cards {
    #[tool(description = "List cards")]
    async fn list(&self, Parameters(req): Parameters<List>) -> Result<CallToolResult, McpError> {
        let order = req.order.as_deref().map(parse_order).transpose()?;
        let limit = req.limit.as_deref().map(parse_limit).transpose()?.unwrap_or(20);
        let filter = req.filter.as_deref().map(parse_filter).transpose()?;
        let shown = format!("{} cards, {}", limit, matches!(order, Some(SortOrder::Desc)));
        Ok(CallToolResult::success(vec![Content::text(match filter {
            Some(f) => format!("{shown} tagged {}", f.tag),
            None => shown,
        })]))
    }
}

pub fn main() {
    let default = std::env::args().nth(1);
    let _ = default.as_deref().map(parse_startup_order);
}
