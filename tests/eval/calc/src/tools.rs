//! Tool definitions advertised by tools/list.

use std::sync::Arc;

use rmcp::model::{JsonObject, Tool};
use serde_json::json;

fn schema(value: serde_json::Value) -> Arc<JsonObject> {
    match value {
        serde_json::Value::Object(map) => Arc::new(map),
        _ => Arc::new(JsonObject::new()),
    }
}

fn two_numbers() -> Arc<JsonObject> {
    schema(json!({
        "type": "object",
        "properties": { "a": { "type": "number" }, "b": { "type": "number" } },
        "required": ["a", "b"]
    }))
}

pub fn all() -> Vec<Tool> {
    vec![
        Tool::new("add", "a + b", two_numbers()),
        Tool::new("divide", "a / b", two_numbers()),
        Tool::new(
            "sqrt",
            "Square root of x",
            schema(json!({
                "type": "object",
                "properties": { "x": { "type": "number" } },
                "required": ["x"]
            })),
        ),
        Tool::new(
            "evaluate",
            "Evaluate an arithmetic expression with + - * / ^ and parentheses",
            schema(json!({
                "type": "object",
                "properties": { "expression": { "type": "string" } },
                "required": ["expression"]
            })),
        ),
        Tool::new(
            "mean",
            "Arithmetic mean of a list of numbers",
            schema(json!({
                "type": "object",
                "properties": { "values": { "type": "array", "items": { "type": "number" } } },
                "required": ["values"]
            })),
        ),
        Tool::new(
            "to_base",
            "Write a non-negative integer in another base (2 to 36)",
            schema(json!({
                "type": "object",
                "properties": { "n": { "type": "number" }, "base": { "type": "number" } },
                "required": ["n", "base"]
            })),
        ),
    ]
}
