//@ dep: serde_json = "1"
// Hand-rolled JSON-RPC: the tools live in a registry of boxed fns (`reg.insert("get_book",
// boxed(get_book))`, values of the crate type `ToolFn` that `boxed` returns), and the `tools/call`
// route runs the one `tools.get(name)` finds. Each registered fn is tool code: `get_book`
// answers a miss on the book id the model gave as a success result. Registering a fn does not
// call it from `build`, outside tool context.
use std::collections::HashMap;

use serde_json::{json, Value};

pub type ToolFn = Box<dyn Fn(&Value) -> Result<Value, String> + Send + Sync>;

fn boxed(f: fn(&Value) -> Result<Value, String>) -> ToolFn {
    Box::new(f)
}

fn text(message: String) -> Value {
    json!({ "content": [{ "type": "text", "text": message }] })
}

fn get_book(args: &Value) -> Result<Value, String> {
    let id = args["book_id"].as_str().unwrap_or_default();
    let books: HashMap<&str, &str> = HashMap::from([("b1", "Dune")]);
    match books.get(id) {
        Some(title) => Ok(text(format!("{id}: {title}"))),
        None => Ok(text(format!("book {id} not found"))), //~ stale_handle_as_success
    }
}

fn list_books(_args: &Value) -> Result<Value, String> {
    Ok(text("b1: Dune".to_string()))
}

pub fn build() -> HashMap<&'static str, ToolFn> {
    let mut reg: HashMap<&'static str, ToolFn> = HashMap::new();
    reg.insert("get_book", boxed(get_book));
    reg.insert("list_books", boxed(list_books));
    reg
}

fn rpc_error(id: &Value, code: i64, message: &str) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } })
}

pub fn handle(tools: &HashMap<&'static str, ToolFn>, message: &Value) -> Value {
    let id = &message["id"];
    let params = &message["params"];
    match message["method"].as_str() {
        Some("tools/call") => {
            let name = params["name"].as_str().unwrap_or_default();
            let Some(tool) = tools.get(name) else {
                return rpc_error(id, -32602, &format!("Unknown tool: {name}"));
            };
            match tool(&params["arguments"]) {
                Ok(result) => json!({ "jsonrpc": "2.0", "id": id, "result": result }),
                Err(e) => json!({ "jsonrpc": "2.0", "id": id, "result": {
                    "content": [{ "type": "text", "text": e }], "isError": true } }),
            }
        }
        _ => rpc_error(id, -32601, "method not found"),
    }
}

fn main() {
    let tools = build();
    println!("{}", handle(&tools, &json!({ "id": 1, "method": "tools/call" })));
}
