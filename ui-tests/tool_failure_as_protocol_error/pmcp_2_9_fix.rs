//@ dep: pmcp = "2.9"
//@ dep: async-trait = "0.1"
//@ dep: serde_json = "1"
// pmcp 2.9 adds `Error::tool_rejected` (read in 2.9.0: `src/error/mod.rs`, and
// `Server::handle_call_tool` sends `Err(Error::ToolRejected { .. })` as an isError result), so
// from 2.9 on the fix replaces the constructor where it stands, as on later versions.
use async_trait::async_trait;
use pmcp::{Error, RequestHandlerExtra, ToolHandler};
use serde_json::Value;

pub struct Echo;

#[async_trait]
impl ToolHandler for Echo {
    async fn handle(&self, args: Value, _extra: RequestHandlerExtra) -> pmcp::Result<Value> {
        if args.get("text").is_none() {
            return Err(Error::validation("text is required, such as {\"text\": \"hi\"}")); //~ tool_failure_as_protocol_error
        }
        Ok(args)
    }
}
