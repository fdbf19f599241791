//@ dep: turbomcp = "3.6"
// turbomcp 3.x: `#[server]` `#[tool]` fns and a hand-written `McpHandler::call_tool` are tool
// context, so a panic there takes the call down; `#[resource]` fns and code outside the server
// are not.
use std::future::Future;

use turbomcp::prelude::*;

#[derive(Clone)]
struct Stats;

#[server(name = "stats", version = "1.0.0")]
impl Stats {
    /// Mean of a list of numbers.
    #[tool]
    async fn mean(&self, numbers: Vec<f64>) -> McpResult<f64> {
        let first = numbers.first().expect("at least one number"); //~ panic_in_tool
        Ok(numbers.iter().sum::<f64>() / numbers.len() as f64 + first * 0.0)
    }

    /// Median of a list of numbers.
    #[tool]
    async fn median(&self, mut numbers: Vec<f64>) -> McpResult<f64> {
        numbers.sort_by(|a, b| a.partial_cmp(b).unwrap()); //~ panic_in_tool
        Ok(numbers[numbers.len() / 2])
    }

    /// The sample data set.
    #[resource("stats://sample")]
    async fn sample(&self, _uri: String, _ctx: &RequestContext) -> McpResult<String> {
        Ok(serde_json::to_string(&[1.0, 2.0, 3.0]).unwrap())
    }
}

#[derive(Clone)]
struct ManualStats;

impl McpHandler for ManualStats {
    fn server_info(&self) -> ServerInfo {
        ServerInfo::new("manual-stats", "1.0.0")
    }

    fn list_tools(&self) -> Vec<Tool> {
        vec![Tool::new("max", "Largest number")]
    }

    fn list_resources(&self) -> Vec<Resource> {
        vec![]
    }

    fn list_prompts(&self) -> Vec<Prompt> {
        vec![]
    }

    fn call_tool<'a>(&'a self, name: &'a str, args: serde_json::Value, _ctx: &'a RequestContext) -> impl Future<Output = McpResult<ToolResult>> + 'a {
        let name = name.to_string();
        async move {
            match name.as_str() {
                "max" => {
                    let numbers = args["numbers"].as_array().unwrap(); //~ panic_in_tool
                    let max = numbers.iter().filter_map(|v| v.as_f64()).fold(f64::MIN, f64::max);
                    Ok(ToolResult::text(max.to_string()))
                }
                _ => Err(McpError::tool_not_found(&name)),
            }
        }
    }

    fn read_resource<'a>(&'a self, uri: &'a str, _ctx: &'a RequestContext) -> impl Future<Output = McpResult<ResourceResult>> + 'a {
        let uri = uri.to_string();
        async move { Err(McpError::resource_not_found(&uri)) }
    }

    fn get_prompt<'a>(&'a self, name: &'a str, _args: Option<serde_json::Value>, _ctx: &'a RequestContext) -> impl Future<Output = McpResult<PromptResult>> + 'a {
        let name = name.to_string();
        async move { Err(McpError::prompt_not_found(&name)) }
    }
}

pub fn main_config() -> u16 {
    std::env::var("PORT").map(|p| p.parse().unwrap()).unwrap_or(8080)
}
