use std::collections::HashMap;
use std::sync::Arc;

use async_trait::async_trait;
use serde_json::Value;

use crate::error::{Error, Result};

#[derive(Debug, Default, Clone)]
pub struct RequestHandlerExtra;

#[async_trait]
pub trait ToolHandler: Send + Sync {
    async fn handle(&self, args: Value, extra: RequestHandlerExtra) -> Result<Value>;
}

type ToolFn = dyn Fn(Value) -> std::result::Result<Value, String> + Send + Sync;

/// A tool from a closure: the SDK's own wrapper, which maps the closure's failure to its
/// internal error by design.
pub struct SimpleTool {
    f: Box<ToolFn>,
}

impl SimpleTool {
    pub fn new(f: impl Fn(Value) -> std::result::Result<Value, String> + Send + Sync + 'static) -> Self {
        SimpleTool { f: Box::new(f) }
    }
}

#[async_trait]
impl ToolHandler for SimpleTool {
    async fn handle(&self, args: Value, _extra: RequestHandlerExtra) -> Result<Value> {
        (self.f)(args).map_err(|e| Error::internal(format!("tool failed: {e}")))
    }
}

#[derive(Default)]
pub struct Server {
    tools: HashMap<String, Arc<dyn ToolHandler>>,
}

impl Server {
    pub fn builder() -> Self {
        Server::default()
    }

    pub fn tool(mut self, name: &str, handler: impl ToolHandler + 'static) -> Self {
        self.tools.insert(name.to_string(), Arc::new(handler));
        self
    }

    /// The SDK's dispatch: an unknown name is its own -32603 (a bug of the SDK's, reported to
    /// its maintainers, not a lint of this library's code).
    pub async fn call_tool(&self, name: &str, args: Value) -> Result<Value> {
        let Some(tool) = self.tools.get(name) else {
            return Err(Error::internal(format!("Tool '{name}' not found")));
        };
        tool.handle(args, RequestHandlerExtra).await
    }
}
