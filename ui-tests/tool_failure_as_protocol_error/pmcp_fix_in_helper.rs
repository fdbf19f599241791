//@ dep: pmcp = "2.23"
//@ dep: async-trait = "0.1"
//@ dep: serde_json = "1"
// pmcp 2.12+ sends `Error::tool_rejected(..)` from a tool as an isError result, whatever fn built
// it: in a helper only tools use, the constructor is replaced where it stands, as in a tool, and
// the helper keeps its signature. A helper the prompt handler uses too is reported at the tool's
// call, with no fix (the prompt's answer must stay a protocol error).
use std::collections::HashMap;

use async_trait::async_trait;
use pmcp::types::{Content, GetPromptResult, PromptMessage};
use pmcp::{Error, PromptHandler, RequestHandlerExtra, Server, ToolHandler};
use serde_json::{json, Value};

fn no_such_account(id: &str) -> Error {
    Error::not_found(format!("no account {id}; list_accounts shows the valid ids")) //~ tool_failure_as_protocol_error
}

fn locked(id: &str) -> Error {
    Error::internal(format!("account {id} is locked"))
}

pub struct Balance {
    accounts: HashMap<String, (i64, bool)>,
}

#[async_trait]
impl ToolHandler for Balance {
    async fn handle(&self, args: Value, _extra: RequestHandlerExtra) -> pmcp::Result<Value> {
        let id = args.get("account").and_then(Value::as_str).unwrap_or_default();
        let (cents, is_locked) = self.accounts.get(id).ok_or_else(|| no_such_account(id))?;
        if *is_locked {
            return Err(locked(id)); //~ tool_failure_as_protocol_error
        }
        Ok(json!({ "cents": cents }))
    }
}

pub struct Statement {
    accounts: HashMap<String, (i64, bool)>,
}

#[async_trait]
impl PromptHandler for Statement {
    async fn handle(&self, args: HashMap<String, String>, _extra: RequestHandlerExtra) -> pmcp::Result<GetPromptResult> {
        let id = args.get("account").map(String::as_str).unwrap_or_default();
        if self.accounts.get(id).is_some_and(|(_, l)| *l) {
            return Err(locked(id));
        }
        Ok(GetPromptResult::new(vec![PromptMessage::user(Content::text(format!("Summarize account {id}")))], None))
    }
}

pub fn build(accounts: HashMap<String, (i64, bool)>) -> pmcp::Result<Server> {
    Server::builder()
        .name("bank")
        .version("1.0.0")
        .tool("balance", Balance { accounts: accounts.clone() })
        .prompt("statement", Statement { accounts })
        .build()
}
