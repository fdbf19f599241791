//@ dep: pmcp = "2.8"
//@ dep: async-trait = "0.1"
//@ dep: serde_json = "1"
// pmcp before 2.9 has no `Error::tool_rejected` (read in 1.20.0; 2.9.0 adds it), and a
// `ToolHandler`'s `Ok` is always a success: a tool there cannot send an isError result. The help
// names the version that can, and there is no fix to apply.
use async_trait::async_trait;
use pmcp::{Error, RequestHandlerExtra, ToolHandler};
use serde_json::Value;

pub struct Echo;

#[async_trait]
impl ToolHandler for Echo {
    async fn handle(&self, args: Value, _extra: RequestHandlerExtra) -> pmcp::Result<Value> {
        if args.get("text").is_none() {
            return Err(Error::validation("text is required")); //~ tool_failure_as_protocol_error
        }
        Ok(args)
    }
}
