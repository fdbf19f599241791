//@ dep: serde_json = "1"
// A hand-rolled MCP server: the functions the `"tools/call"` arm reaches are tool context, so a
// panic in them takes the request (often the whole stdio server) down. The JSON-RPC plumbing
// around them (reading stdin, the `initialize` answer) is not.
use std::io::BufRead;

use serde_json::{json, Value};

fn parse_number(args: &Value, key: &str) -> f64 {
    args[key].as_f64().unwrap() //~ panic_in_tool
}

fn divide(id: &Value, args: &Value) -> Value {
    let a = parse_number(args, "a");
    let b = parse_number(args, "b");
    if b == 0.0 {
        panic!("division by zero"); //~ panic_in_tool
    }
    json!({ "jsonrpc": "2.0", "id": id, "result": { "content": [{ "type": "text", "text": (a / b).to_string() }] } })
}

fn handle(request: &Value) -> Value {
    let id = &request["id"];
    match request["method"].as_str().unwrap_or_default() {
        "initialize" => json!({ "jsonrpc": "2.0", "id": id, "result": { "protocolVersion": "2025-11-25", "capabilities": { "tools": {} } } }),
        "tools/call" => match request["params"]["name"].as_str().unwrap_or_default() {
            "divide" => divide(id, &request["params"]["arguments"]),
            other => json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32602, "message": format!("Unknown tool: {other}") } }),
        },
        other => json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32601, "message": format!("method not found: {other}") } }),
    }
}

fn main() {
    for line in std::io::stdin().lock().lines() {
        let request: Value = serde_json::from_str(&line.expect("stdin is readable")).expect("one JSON-RPC message per line");
        println!("{}", handle(&request));
    }
}
