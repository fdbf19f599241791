//! Tool definitions served by `list_tools`.

use std::sync::Arc;

use rmcp::model::{JsonObject, Tool};
use serde_json::{Value, json};

fn schema(value: Value) -> Arc<JsonObject> {
    match value {
        Value::Object(map) => Arc::new(map),
        _ => unreachable!("tool schemas are written as JSON objects"),
    }
}

fn ticket_only() -> Arc<JsonObject> {
    schema(json!({
        "type": "object",
        "properties": { "ticket_id": { "type": "string", "description": "Ticket id, e.g. T-48213" } },
        "required": ["ticket_id"]
    }))
}

pub fn all_tools() -> Vec<Tool> {
    vec![
        Tool::new("get_ticket", "Show a ticket with its status, queue, assignee and SLA", ticket_only()),
        Tool::new(
            "list_tickets",
            "List tickets of a queue, optionally by status",
            schema(json!({
                "type": "object",
                "properties": {
                    "queue": { "type": "string" },
                    "status": { "type": "string", "description": "open, pending, solved or closed" },
                    "limit": { "type": "integer", "minimum": 0 }
                },
                "required": ["queue"]
            })),
        ),
        Tool::new(
            "create_ticket",
            "Open a new ticket in a queue",
            schema(json!({
                "type": "object",
                "properties": {
                    "queue": { "type": "string" },
                    "subject": { "type": "string" },
                    "body": { "type": "string" },
                    "priority": { "type": "string", "description": "low, normal, high or urgent" }
                },
                "required": ["queue", "subject", "body"]
            })),
        ),
        Tool::new(
            "update_ticket_status",
            "Set a ticket's status",
            schema(json!({
                "type": "object",
                "properties": { "ticket_id": { "type": "string" }, "status": { "type": "string" } },
                "required": ["ticket_id", "status"]
            })),
        ),
        Tool::new(
            "add_comment",
            "Add a public or internal comment to a ticket",
            schema(json!({
                "type": "object",
                "properties": {
                    "ticket_id": { "type": "string" },
                    "body": { "type": "string" },
                    "internal": { "type": "boolean" }
                },
                "required": ["ticket_id", "body"]
            })),
        ),
        Tool::new(
            "assign_ticket",
            "Assign a ticket to an agent by handle or e-mail",
            schema(json!({
                "type": "object",
                "properties": { "ticket_id": { "type": "string" }, "agent": { "type": "string" } },
                "required": ["ticket_id", "agent"]
            })),
        ),
        Tool::new("list_queues", "List queues with their open counts and SLA", schema(json!({ "type": "object" }))),
        Tool::new(
            "apply_macro",
            "Apply a saved macro to a ticket",
            schema(json!({
                "type": "object",
                "properties": { "ticket_id": { "type": "string" }, "macro_id": { "type": "integer" } },
                "required": ["ticket_id", "macro_id"]
            })),
        ),
        Tool::new("close_ticket", "Close a ticket after the user confirms", ticket_only()),
        Tool::new("summarize_ticket", "Summarise a ticket's thread with the client's model", ticket_only()),
        Tool::new(
            "search_tickets",
            "Full-text search over tickets",
            schema(json!({
                "type": "object",
                "properties": { "query": { "type": "string" } },
                "required": ["query"]
            })),
        ),
        Tool::new(
            "sla_report",
            "Count tickets of a queue that breached or will breach their SLA",
            schema(json!({
                "type": "object",
                "properties": { "queue": { "type": "string" }, "window_hours": { "type": "integer" } },
                "required": ["queue"]
            })),
        ),
        Tool::new("draft_start", "Start a reply draft for a ticket; returns a draft_id valid for 30 minutes", ticket_only()),
        Tool::new(
            "draft_append",
            "Append text to a reply draft",
            schema(json!({
                "type": "object",
                "properties": { "draft_id": { "type": "string" }, "text": { "type": "string" } },
                "required": ["draft_id", "text"]
            })),
        ),
        Tool::new(
            "draft_send",
            "Send a reply draft as a public comment",
            schema(json!({
                "type": "object",
                "properties": { "draft_id": { "type": "string" } },
                "required": ["draft_id"]
            })),
        ),
    ]
}
