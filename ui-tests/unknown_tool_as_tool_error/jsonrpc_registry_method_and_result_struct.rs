//@ dep: serde_json = "1"
// A hand-rolled server (shaped like aprender-mcp 0.72) whose tools sit in a registry behind a crate
// method, `index.dispatch_for(name)`, whose value is `self.dispatch.get(name)`: its `None` is the
// unknown-tool branch, as a `get` in the dispatcher would be. The crate's own result type is a
// tool result by its shape (`content` and `is_error`), whatever it is called: `ToolCallResult`
// here. Answering the unknown name with `ToolCallResult::error(..)` is this lint. A lookup through
// a crate method keyed by something else (`index.category_of(&kind)`) is not the tool name's
// lookup, and its miss is the tool's own failure.
use std::collections::HashMap;

use serde_json::{json, Value};

pub struct ToolCallResult {
    pub content: Vec<Value>,
    pub is_error: Option<bool>,
}

impl ToolCallResult {
    pub fn error(text: impl Into<String>) -> Self {
        ToolCallResult { content: vec![json!({"type": "text", "text": text.into()})], is_error: Some(true) }
    }

    pub fn text(text: impl Into<String>) -> Self {
        ToolCallResult { content: vec![json!({"type": "text", "text": text.into()})], is_error: None }
    }
}

type DispatchFn = fn(&Value) -> ToolCallResult;

pub struct ToolIndex {
    dispatch: HashMap<String, DispatchFn>,
    categories: HashMap<String, String>,
}

impl ToolIndex {
    pub fn dispatch_for(&self, name: &str) -> Option<&DispatchFn> {
        self.dispatch.get(name)
    }

    pub fn category_of(&self, kind: &str) -> Option<&String> {
        self.categories.get(kind)
    }
}

fn dispatch_tool_call(index: &ToolIndex, params: &Value) -> ToolCallResult {
    let Some(name) = params.get("name").and_then(Value::as_str) else {
        return ToolCallResult::error("Missing tool name");
    };
    let arguments = params.get("arguments").cloned().unwrap_or_else(|| json!({}));
    let kind = arguments["kind"].as_str().unwrap_or_default();
    if index.category_of(kind).is_none() {
        return ToolCallResult::error(format!("no category {kind:?}: use one of `tools/list`'s"));
    }
    match index.dispatch_for(name) {
        Some(dispatch) => dispatch(&arguments),
        None => ToolCallResult::error(format!("Unknown tool: {name}")), //~ unknown_tool_as_tool_error
    }
}

pub fn handle(index: &ToolIndex, request: &Value) -> Value {
    let id = request["id"].clone();
    match request["method"].as_str() {
        Some("tools/call") => {
            let result = dispatch_tool_call(index, &request["params"]);
            json!({"jsonrpc": "2.0", "id": id, "result": {"content": result.content, "isError": result.is_error}})
        }
        _ => json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32601, "message": "method not found"}}),
    }
}

fn main() {}
