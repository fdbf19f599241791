//! A tower-mcp 0.25 server whose tools answer failures with success results or with isError
//! results that say nothing, in the forms `mcp-lint check --fix --unsafe-fixes` rewrites. A
//! tower-mcp tool sends no JSON-RPC error (every `Err` of a tool is an isError result), so
//! there is no protocol error to rewrite.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};
use tower_mcp::{CallToolResult, McpTool, Tool, ToolBuilder};

/// Backends by name.
#[derive(Default)]
pub struct Registry {
    backends: Mutex<HashMap<String, String>>,
}

impl Registry {
    fn add(&self, name: &str, url: &str) -> Result<(), std::io::Error> {
        if !url.starts_with("http") {
            return Err(std::io::Error::other(format!("{url} is not an http URL")));
        }
        let mut backends = self.backends.lock().expect("registry lock");
        backends.insert(name.to_string(), url.to_string());
        Ok(())
    }

    fn remove(&self, name: &str) -> Result<String, std::io::Error> {
        let mut backends = self.backends.lock().expect("registry lock");
        backends
            .remove(name)
            .ok_or_else(|| std::io::Error::other(format!("no backend {name}")))
    }

    fn dump(&self) -> Result<String, std::io::Error> {
        let backends = self.backends.lock().expect("registry lock");
        serde_json::to_string(&*backends).map_err(std::io::Error::other)
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct AddInput {
    name: String,
    url: String,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct NameInput {
    name: String,
}

/// The registry's tools: `add_backend`, `remove_backend` and `dump`.
pub fn tools(registry: Arc<Registry>) -> Vec<Tool> {
    let for_add = Arc::clone(&registry);
    let add = ToolBuilder::new("add_backend")
        .description("Add a backend")
        .handler(move |input: AddInput| {
            let registry = Arc::clone(&for_add);
            async move {
                match registry.add(&input.name, &input.url) {
                    Ok(()) => Ok(CallToolResult::text(format!("added {}", input.name))),
                    Err(e) => Ok(CallToolResult::text(format!(
                        "cannot add backend {}: {e}",
                        input.name
                    ))),
                }
            }
        })
        .build();

    let for_remove = Arc::clone(&registry);
    let remove = ToolBuilder::new("remove_backend")
        .description("Remove a backend")
        .handler(move |input: NameInput| {
            let registry = Arc::clone(&for_remove);
            async move {
                match registry.remove(&input.name) {
                    Ok(url) => Ok(CallToolResult::text(format!("removed {url}"))),
                    Err(e) => {
                        eprintln!("remove_backend: {e}");
                        Ok(CallToolResult::error(""))
                    }
                }
            }
        })
        .build();

    let for_dump = Arc::clone(&registry);
    let dump = ToolBuilder::new("dump")
        .description("Dump the registry")
        .handler(move |_: NameInput| {
            let registry = Arc::clone(&for_dump);
            async move {
                match registry.dump() {
                    Ok(text) => Ok(CallToolResult::text(text)),
                    Err(e) => {
                        eprintln!("dump: {e}");
                        Ok(CallToolResult::error("failed"))
                    }
                }
            }
        })
        .build();

    vec![add, remove, dump]
}

/// `lookup`: a backend's URL. An `McpTool`'s output goes out as a success result
/// (`CallToolResult::json`); its `Err` is the isError one.
pub struct Lookup(pub Arc<Registry>);

impl McpTool for Lookup {
    const NAME: &'static str = "lookup";
    const DESCRIPTION: &'static str = "Look a backend up";
    type Input = NameInput;
    type Output = Value;

    async fn call(&self, input: Self::Input) -> tower_mcp::Result<Value> {
        if !input.name.chars().all(char::is_alphanumeric) {
            return Ok(json!({ "error": format!("{:?} is no backend name", input.name) }));
        }
        let backends = self.0.backends.lock().expect("registry lock");
        let Some(url) = backends.get(&input.name) else {
            return Ok(json!({ "error": format!("no backend {}", input.name) }));
        };
        Ok(json!({ "name": input.name, "url": url }))
    }
}
