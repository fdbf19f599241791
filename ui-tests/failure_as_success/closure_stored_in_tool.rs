//@ dep: pmcp = "2.23"
//@ dep: async-trait = "0.1"
//@ dep: serde_json = "1"
//@ dep: anyhow = "1"
// A crate's own tool type that stores each tool's closure in a Fn-typed field
// (`Self { handler: Box::new(handler) }`) and calls it from `ToolHandler::handle`
// (`(self.handler)(args)`): every closure passed to its constructor runs as that tool's code, so
// a failed outcome answered with `Ok(json!({"success": false, ..}))` there is the failure sent
// as success. A closure stored in a struct no handler calls (`Hook`) is not tool code.
use std::process::Command;

use async_trait::async_trait;
use pmcp::{Error, RequestHandlerExtra, ToolHandler};
use serde_json::{json, Value};

pub struct ScriptTool {
    name: String,
    handler: Box<dyn Fn(Value) -> anyhow::Result<Value> + Send + Sync>,
}

impl ScriptTool {
    pub fn new<F>(name: &str, handler: F) -> Self
    where
        F: Fn(Value) -> anyhow::Result<Value> + Send + Sync + 'static,
    {
        Self {
            name: name.to_string(),
            handler: Box::new(handler),
        }
    }
}

#[async_trait]
impl ToolHandler for ScriptTool {
    async fn handle(&self, args: Value, _extra: RequestHandlerExtra) -> pmcp::Result<Value> {
        (self.handler)(args).map_err(|e| Error::internal(format!("{} failed: {e}", self.name))) //~ tool_failure_as_protocol_error
    }
}

pub struct Hook {
    on_exit: Box<dyn Fn(i32) -> Value + Send + Sync>,
}

impl Hook {
    pub fn new(on_exit: impl Fn(i32) -> Value + Send + Sync + 'static) -> Self {
        Self { on_exit: Box::new(on_exit) }
    }

    pub fn fire(&self, code: i32) -> Value {
        (self.on_exit)(code)
    }
}

pub fn tools() -> Vec<ScriptTool> {
    let check = ScriptTool::new("check", |args: Value| -> anyhow::Result<Value> {
        let path = args.get("path").and_then(Value::as_str).unwrap_or_default();
        let output = Command::new("ruchy").arg("check").arg(path).output()?;
        if output.status.success() {
            Ok(json!({ "success": true, "path": path }))
        } else {
            let stderr = String::from_utf8_lossy(&output.stderr);
            Ok(json!({ "success": false, "error": stderr.trim() })) //~ failure_as_success
        }
    });
    let hook = Hook::new(|code| {
        if code == 0 {
            json!({ "ok": true })
        } else {
            json!({ "ok": false, "error": code })
        }
    });
    let _ = hook.fire(1);
    vec![check]
}
