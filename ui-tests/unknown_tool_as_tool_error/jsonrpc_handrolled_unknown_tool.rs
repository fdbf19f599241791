//@ dep: serde_json = "1"
//@ dep: tokio = "1"
// A hand-rolled MCP server: the fallback arm of the match over the tool name in the `"tools/call"`
// handler answers with a result, `"isError": true` or plain success text, instead of a JSON-RPC
// error: this lint, at the `json!` call. The second server answers with an error object, which is
// right (its code is judged by unknown_tool_wrong_code).
use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

fn text_result(id: Value, text: String) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "result": { "content": [{ "type": "text", "text": text }] } })
}

async fn call_tool(id: Value, params: &Value) -> Value {
    let name = params["name"].as_str().unwrap_or_default();
    let city = params["arguments"]["city"].as_str().unwrap_or("Paris");
    match name {
        "time_in" => text_result(id, format!("12:00 in {city}")),
        "weather_in" => text_result(id, format!("sunny in {city}")),
        _ => json!({ "jsonrpc": "2.0", "id": id, "result": { "content": [{ "type": "text", "text": format!("Unknown tool: {name}") }], "isError": true } }), //~ unknown_tool_as_tool_error
    }
}

async fn call_tool_v1(id: Value, params: &Value) -> Value {
    match params["name"].as_str() {
        Some("time_in") => text_result(id, "12:00".to_string()),
        Some(other) => text_result(id, format!("sorry, I have no tool called {other}")), //~ unknown_tool_as_tool_error
        None => json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32602, "message": "tools/call needs a tool name" } }),
    }
}

pub async fn serve(v1: bool) -> std::io::Result<()> {
    let mut lines = BufReader::new(tokio::io::stdin()).lines();
    let mut stdout = tokio::io::stdout();
    while let Some(line) = lines.next_line().await? {
        let Ok(request) = serde_json::from_str::<Value>(&line) else { continue };
        let id = request["id"].clone();
        let response = match request["method"].as_str().unwrap_or_default() {
            "tools/call" if v1 => call_tool_v1(id, &request["params"]).await,
            "tools/call" => call_tool(id, &request["params"]).await,
            "tools/list" => json!({ "jsonrpc": "2.0", "id": id, "result": { "tools": [] } }),
            method => json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32601, "message": format!("no method {method}") } }),
        };
        stdout.write_all(format!("{response}\n").as_bytes()).await?;
    }
    Ok(())
}
