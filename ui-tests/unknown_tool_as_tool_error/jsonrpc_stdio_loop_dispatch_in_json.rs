//@ dep: serde_json = "1"
// A hand-rolled stdio server whose `main` loop parses each line into `req` and routes on
// `req["method"]`: in the `"tools/call"` arm, what the method was read from is the request, so
// the name read out of its params and handed to `call_tool` (here inside the response's
// `json!`) makes `call_tool` the dispatcher, and its catch-all answering with an isError result
// is the unknown tool's answer. Not: `describe`'s catch-all over a name that is no tool's (a
// helper the `"tools/list"` arm calls with a literal).
use serde_json::{json, Value};

fn run(script: &str) -> Result<String, String> {
    std::fs::read_to_string(script).map_err(|e| e.to_string())
}

fn call_tool(name: &str, args: &Value) -> Value {
    let script = match name {
        "open_page" => format!("open {}", args["page"]),
        "render" => "render".to_string(),
        _ => return json!({ "content": [{ "type": "text", "text": format!("Unknown tool: {name}") }], "isError": true }), //~ unknown_tool_as_tool_error
    };
    match run(&script) {
        Ok(out) => json!({ "content": [{ "type": "text", "text": out }] }),
        Err(e) => json!({ "content": [{ "type": "text", "text": format!("script failed: {e}") }], "isError": true }),
    }
}

fn describe(kind: &str) -> Value {
    match kind {
        "pages" => json!(["media", "edit"]),
        _ => json!({ "content": [{ "type": "text", "text": format!("no description for {kind}") }], "isError": true }),
    }
}

fn main() {
    let mut line = String::new();
    while std::io::stdin().read_line(&mut line).unwrap_or(0) > 0 {
        let req: Value = serde_json::from_str(&line).unwrap_or_default();
        let resp = match req["method"].as_str().unwrap_or("") {
            "tools/list" => json!({ "jsonrpc": "2.0", "id": req["id"], "result": { "tools": [], "pages": describe("pages") } }),
            "tools/call" => {
                let params = req["params"].clone();
                let name = params["name"].as_str().unwrap_or("");
                let args = params.get("arguments").cloned().unwrap_or(json!({}));
                json!({ "jsonrpc": "2.0", "id": req["id"], "result": call_tool(name, &args) })
            }
            _ => json!({ "jsonrpc": "2.0", "id": req["id"], "error": { "code": -32601, "message": "Method not found" } }),
        };
        println!("{resp}");
        line.clear();
    }
}
