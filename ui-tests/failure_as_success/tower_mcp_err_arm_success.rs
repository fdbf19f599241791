//@ dep: tower-mcp = "0.25"
//@ dep: serde = "1"
//@ dep: schemars = "1"
//@ dep: serde_json = "1"
// tower-mcp: `CallToolResult::text(..)` is a success result (`is_error: false`) and
// `CallToolResult::error(..)` the isError one; a tool's `Err` is an isError result too (the
// builder wraps every tool in `ToolCatchError`). A tool is the closure `ToolBuilder::new(..)`
// gets through `.handler(..)`; a resource's `.handler(..)` is not a tool.
use std::sync::Arc;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use tower_mcp::protocol::ReadResourceResult;
use tower_mcp::resource::ResourceBuilder;
use tower_mcp::{CallToolResult, Error, NoParams, Tool, ToolBuilder};

pub struct Registry;

impl Registry {
    pub async fn register(&self, _name: &str, _url: &str) -> Result<(), std::io::Error> {
        Ok(())
    }
    pub async fn remove(&self, _name: &str) -> Result<usize, std::io::Error> {
        Ok(0)
    }
    pub async fn dump(&self) -> Result<String, std::io::Error> {
        Ok(String::new())
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct AddInput {
    name: String,
    url: String,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct RemoveInput {
    name: String,
}

pub fn tools(registry: Arc<Registry>) -> Vec<Tool> {
    let for_add = Arc::clone(&registry);
    let add = ToolBuilder::new("add_backend")
        .description("Add a backend")
        .handler(move |input: AddInput| {
            let registry = Arc::clone(&for_add);
            async move {
                match registry.register(&input.name, &input.url).await {
                    Ok(()) => Ok(CallToolResult::text(format!("added {}", input.name))),
                    Err(e) => Ok(CallToolResult::text(format!( //~ failure_as_success
                        "Failed to add backend '{}': {e}",
                        input.name
                    ))),
                }
            }
        })
        .build();

    // The same shape answered with the isError result, or with the tool's `Err`: both right.
    let for_remove = Arc::clone(&registry);
    let remove = ToolBuilder::new("remove_backend")
        .description("Remove a backend")
        .handler(move |input: RemoveInput| {
            let registry = Arc::clone(&for_remove);
            async move {
                match registry.remove(&input.name).await {
                    Ok(n) => Ok(CallToolResult::text(format!("removed {n} sessions"))),
                    Err(e) => Ok(CallToolResult::error(format!(
                        "cannot remove '{}': {e}",
                        input.name
                    ))),
                }
            }
        })
        .build();

    let for_dump = Arc::clone(&registry);
    let dump = ToolBuilder::new("dump")
        .description("Dump the registry")
        .handler(move |_: NoParams| {
            let registry = Arc::clone(&for_dump);
            async move {
                match registry.dump().await {
                    Ok(text) => Ok(CallToolResult::text(text)),
                    Err(e) => Err(Error::tool(format!("cannot read the registry: {e}"))),
                }
            }
        })
        .build();

    // A fallback row for one backend whose probe failed, in a table the tool answers: the
    // `unwrap_or("-")` inside that `Err` arm fills a cell, it is not the tool's answer (the
    // closure's `Ok` is the SDK's result, not the tool's text).
    let for_table = Arc::clone(&registry);
    let table = ToolBuilder::new("backend_table")
        .description("List the backends")
        .handler(move |input: RemoveInput| async move {
            let registry = Arc::clone(&for_table);
            let mut output = String::from("| name | sessions |\n");
            for name in input.name.split(',') {
                match registry.remove(name).await {
                    Ok(n) => output.push_str(&format!("| {name} | {n} |\n")),
                    Err(_) => {
                        let alias = name.split_once('.').map(|(head, _)| head);
                        output.push_str(&format!(
                            "| {} | - |\n",
                            alias.as_deref().unwrap_or("-").trim()
                        ));
                    }
                }
            }
            Ok(CallToolResult::text(output))
        })
        .build();

    vec![add, remove, dump, table]
}

// A resource's handler: its answer is not a tool result, whatever its Err arm says.
pub fn status_resource(registry: Arc<Registry>) -> tower_mcp::Resource {
    ResourceBuilder::new("app://status")
        .name("Status")
        .handler(move || {
            let registry = Arc::clone(&registry);
            async move {
                match registry.dump().await {
                    Ok(text) => Ok(ReadResourceResult::text("app://status", text)),
                    Err(e) => Ok(ReadResourceResult::text("app://status", format!("Error: {e}"))),
                }
            }
        })
        .build()
}

// `#[tool_fn]` writes the same `.handler(..)` registration around the fn.
#[tower_mcp::tool_fn(description = "Delete a file")]
pub async fn delete(input: RemoveInput) -> Result<CallToolResult, Error> {
    match std::fs::remove_file(&input.name) {
        Ok(()) => Ok(CallToolResult::text(format!("deleted {}", input.name))),
        Err(e) => Ok(CallToolResult::text(format!("Error: {e}"))), //~ failure_as_success
    }
}

// An `McpTool`'s output goes out as `CallToolResult::json(..)`, a success: its own
// `"isError": true` is not the result's.
pub struct Lookup;

impl tower_mcp::McpTool for Lookup {
    const NAME: &'static str = "lookup";
    const DESCRIPTION: &'static str = "Look a backend up";
    type Input = RemoveInput;
    type Output = serde_json::Value;

    async fn call(&self, input: Self::Input) -> tower_mcp::Result<serde_json::Value> {
        if input.name.is_empty() {
            return Ok(json!({ "isError": true, "reason": "name is empty" })); //~ failure_as_success
        }
        Ok(json!({ "name": input.name, "isError": false }))
    }
}
