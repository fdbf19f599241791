//@ dep: pmcp = "2.23"
//@ dep: async-trait = "0.1"
//@ dep: serde_json = "1"
// pmcp 2.23: `ToolHandler::handle_output` has a default body, `self.handle(args, extra)`, and is
// what the server calls. A handler that overrides `handle_output` without calling `handle` never
// has `handle` run (pmcp-team-servers' dispatch tools keep one "only to satisfy the trait"), so
// its `Err` is no tool failure, and the helpers it calls are not "used outside tool context":
// the tool's own failure in a shared helper is still reported at the helper. An override that
// does call `handle` keeps it a tool.
// Checks of what the request carries, by the server's own state, are the request's, not the
// tool's (pmcp's s29_oauth_server): `self.auth.authenticate(extra.auth_info.as_ref())`, and a
// guard on a value read from the request's `_meta` by a crate fn given only the context.
use std::sync::Arc;

use async_trait::async_trait;
use pmcp::auth::middleware::AuthMiddleware;
use pmcp::server::ToolOutput;
use pmcp::{Error, RequestHandlerExtra, ToolHandler};
use serde_json::{json, Value};

fn arg_u64(args: &Value, key: &str) -> pmcp::Result<u64> {
    let n = args.get(key).and_then(Value::as_u64).unwrap_or(0);
    if n > 100 {
        return Err(Error::internal(format!("{key} is {n}: at most 100"))); //~ tool_failure_as_protocol_error
    }
    Ok(n)
}

struct Dispatch;

#[async_trait]
impl ToolHandler for Dispatch {
    async fn handle(&self, args: Value, _extra: RequestHandlerExtra) -> pmcp::Result<Value> {
        let _ = arg_u64(&args, "n")?;
        Err(Error::internal("dispatch is served through handle_output"))
    }

    async fn handle_output(&self, args: Value, _extra: RequestHandlerExtra) -> pmcp::Result<ToolOutput> {
        let n = arg_u64(&args, "n")?;
        Ok(ToolOutput::Payload(json!({ "n": n })))
    }
}

struct Wrapped;

#[async_trait]
impl ToolHandler for Wrapped {
    async fn handle(&self, args: Value, _extra: RequestHandlerExtra) -> pmcp::Result<Value> {
        let Some(id) = args.get("id").and_then(Value::as_u64) else {
            return Ok(json!({ "id": null }));
        };
        if id == 0 {
            return Err(Error::internal("id 0 is reserved: use 1 or more")); //~ tool_failure_as_protocol_error
        }
        Ok(json!({ "id": id }))
    }

    async fn handle_output(&self, args: Value, extra: RequestHandlerExtra) -> pmcp::Result<ToolOutput> {
        Ok(ToolOutput::Payload(self.handle(args, extra).await?))
    }
}

struct Guarded {
    auth: Arc<dyn AuthMiddleware>,
    max_depth: u64,
}

struct GuardState {
    depth: u64,
}

fn read_guard_state(extra: &RequestHandlerExtra) -> Result<GuardState, String> {
    let meta = extra.auth_info.as_ref().ok_or("no auth info")?;
    Ok(GuardState { depth: format!("{meta:?}").len() as u64 })
}

fn guard_depth(depth: u64, max: u64) -> Result<(), String> {
    if depth > max {
        return Err(format!("team depth {depth} exceeds {max}"));
    }
    Ok(())
}

#[async_trait]
impl ToolHandler for Guarded {
    async fn handle(&self, args: Value, extra: RequestHandlerExtra) -> pmcp::Result<Value> {
        let who = self.auth.authenticate(extra.auth_info.as_ref()).await?;
        let state = read_guard_state(&extra).map_err(Error::internal)?;
        guard_depth(state.depth, self.max_depth).map_err(Error::internal)?;
        let n = args.get("n").and_then(Value::as_u64).unwrap_or(0);
        if n > 10 {
            return Err(Error::internal(format!("n is {n}: at most 10"))); //~ tool_failure_as_protocol_error
        }
        Ok(json!({ "who": format!("{:?}", who.subject), "n": n }))
    }
}

fn main() {}
