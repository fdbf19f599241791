//@ dep: serde_json = "1"
// A hand-rolled server whose result type's failure constructors are struct updates of its
// success one (`Self { is_error: true, ..Self::text(t) }`): the literal's own flag decides, so
// `CallToolResult::error(..)` and `CallToolResult::rejected(..)` build isError results (no
// MCP009 at the eval failure). A guarded arm `_ if is_builtin(name) =>` routes the built-in
// tools the guard lets in (its answer is a tool's, not the unknown tool's, and the fallback of
// the fn it hands the name to is never reached by an unknown name); the unguarded `_` after it
// is the unknown-tool branch.
use serde::Serialize;
use serde_json::{json, Value};

#[derive(Serialize)]
pub struct CallToolResult {
    pub content: Vec<Value>,
    #[serde(rename = "isError")]
    pub is_error: bool,
}

impl CallToolResult {
    pub fn text(t: impl Into<String>) -> Self {
        Self { content: vec![json!({"type": "text", "text": t.into()})], is_error: false }
    }

    pub fn error(t: impl Into<String>) -> Self {
        Self { is_error: true, ..Self::text(t) }
    }

    pub fn rejected(t: impl Into<String>) -> Self {
        Self { is_error: true, ..Self::text(t) }
    }
}

const BUILTINS: &[&str] = &["docs", "version"];

fn is_builtin(name: &str) -> bool {
    BUILTINS.contains(&name)
}

fn builtin(name: &str, args: &Value) -> CallToolResult {
    match name {
        "docs" => CallToolResult::text(format!("docs for {args}")),
        "version" => CallToolResult::text("1.0"),
        // Only names `is_builtin` lets in reach here: not the unknown tool's answer.
        _ => CallToolResult::error(format!("no built-in tool {name}")),
    }
}

fn run(code: &str) -> Result<String, String> {
    if code.is_empty() {
        return Err("code is empty; pass an expression such as (+ 1 2)".into());
    }
    Ok(code.to_string())
}

fn call_tool(name: &str, args: &Value) -> CallToolResult {
    let code = args.get("code").and_then(Value::as_str).unwrap_or("");
    match name {
        "eval" => match run(code) {
            Ok(v) => CallToolResult::text(v),
            Err(e) => CallToolResult::error(format!("eval of {code:?} failed: {e}")),
        },
        "check" => match run(code) {
            Ok(_) => CallToolResult::text("ok"),
            Err(e) => CallToolResult::rejected(format!("check of {code:?} failed: {e}")),
        },
        _ if is_builtin(name) => builtin(name, args),
        _ => CallToolResult::error(format!("unknown tool: {name}")), //~ unknown_tool_as_tool_error
    }
}

pub fn handle(req: &Value) -> Value {
    let id = req["id"].clone();
    match req["method"].as_str().unwrap_or("") {
        "tools/call" => {
            let name = req["params"]["name"].as_str().unwrap_or("");
            let result = call_tool(name, &req["params"]["arguments"]);
            json!({"jsonrpc": "2.0", "id": id, "result": result})
        }
        m => json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32601, "message": format!("Method not found: {m}")}}),
    }
}

fn main() {
    println!("{}", handle(&json!({})));
}
