//@ dep: pmcp = "2.23"
//@ dep: async-trait = "0.1"
//@ dep: serde_json = "1"
// pmcp 2.x resolves registered tool names itself (its own unknown-tool answer,
// `Error::not_found("Tool '..' not found")` in `Server` and `Error::internal(..)` in `ServerCore`,
// both -32603, lives in pmcp and is never reported). A server that registers one handler per
// plugin and dispatches on the registered name with its own `match` owns that fallback, and pmcp
// sends it as it sends any tool error, -32603 (`create_response`): `Error::not_found(..)`,
// `Error::internal(..)`, `Error::method_not_found(..)`, even `Error::invalid_params("Unknown tool:
// <name>")`. All are the wrong code, and a pmcp handler cannot send the spec's -32602.
use std::sync::Arc;

use async_trait::async_trait;
use pmcp::{Error, RequestHandlerExtra, Server, ToolHandler};
use serde_json::{json, Value};

fn run_formatter(args: &Value) -> Value {
    json!({ "formatted": args.get("source").and_then(Value::as_str).unwrap_or_default().trim() })
}

fn run_linter(args: &Value) -> Value {
    let source = args.get("source").and_then(Value::as_str).unwrap_or_default();
    json!({ "warnings": source.lines().filter(|l| l.len() > 100).count() })
}

/// Plugins are listed in `plugins.toml`; the registered names and this match can drift apart.
pub struct PluginHost;

impl PluginHost {
    fn invoke(&self, tool: &str, args: Value) -> pmcp::Result<Value> {
        match tool {
            "format" => Ok(run_formatter(&args)),
            "lint" => Ok(run_linter(&args)),
            other => Err(Error::not_found(format!("Tool '{other}' not found"))), //~ unknown_tool_wrong_code
        }
    }

    fn invoke_v1(&self, tool: &str, args: Value) -> pmcp::Result<Value> {
        match tool {
            "format" => Ok(run_formatter(&args)),
            _ => Err(Error::internal(format!("Tool '{tool}' not found"))), //~ unknown_tool_wrong_code
        }
    }

    fn invoke_script(&self, tool: &str, args: Value) -> pmcp::Result<Value> {
        match tool {
            "lint" => Ok(run_linter(&args)),
            unknown => Err(Error::method_not_found(unknown)), //~ unknown_tool_wrong_code
        }
    }

    fn invoke_strict(&self, tool: &str, args: Value) -> pmcp::Result<Value> {
        match tool {
            "format" => Ok(run_formatter(&args)),
            "lint" => Ok(run_linter(&args)),
            unknown => Err(Error::invalid_params(format!("Unknown tool: {unknown}"))), //~ unknown_tool_wrong_code
        }
    }
}

pub struct PluginTool {
    name: String,
    api: u8,
    host: Arc<PluginHost>,
}

#[async_trait]
impl ToolHandler for PluginTool {
    async fn handle(&self, args: Value, _extra: RequestHandlerExtra) -> pmcp::Result<Value> {
        match self.api {
            1 => self.host.invoke_v1(&self.name, args),
            2 => self.host.invoke(&self.name, args),
            3 => self.host.invoke_script(&self.name, args),
            _ => self.host.invoke_strict(&self.name, args),
        }
    }
}

pub fn build(plugins: &[(String, u8)]) -> pmcp::Result<Server> {
    let host = Arc::new(PluginHost);
    let mut builder = Server::builder().name("plugins").version("1.0.0");
    for (name, api) in plugins {
        builder = builder.tool(name.clone(), PluginTool { name: name.clone(), api: *api, host: host.clone() });
    }
    builder.build()
}
