//@ dep: turbomcp = "2.3"
//@ dep: tokio = "1"
// turbomcp 2.x: `McpError::Server(ServerError::not_found(..))` keeps the server error, sent with
// `ServerError::error_code()` (`not_found` -32004, `rate_limit` -32009), and
// `McpError::from(ProtocolError::invalid_params(..))` is sent with its kind's code (-32602), as
// `ServerError::Protocol` (turbomcp-server 2.3.7 `error.rs`, turbomcp-protocol 2.3.7
// `jsonrpc_error_code`). From a `#[tool]` each is a JSON-RPC error: a runner id the model gave
// that is not there, a business rule and a rejected value are tool failures sent so.
use std::collections::HashMap;
use std::sync::{Arc, RwLock};

use turbomcp::prelude::*;
use turbomcp::{ProtocolError, ServerError};

#[derive(Clone)]
struct Runners {
    busy: Arc<RwLock<HashMap<String, bool>>>,
}

#[server(name = "runners", version = "1.0.0")]
impl Runners {
    #[tool("Drain a runner")]
    async fn drain(&self, runner_id: String, reason: String) -> McpResult<String> {
        if reason.trim().len() < 8 {
            return Err(McpError::from(ProtocolError::invalid_params(format!( //~ tool_input_as_invalid_params
                "reason must say why in at least 8 characters, got {reason:?}"
            ))));
        }
        let busy = match self.busy.read() {
            Ok(map) => map.get(&runner_id).copied(),
            Err(_) => return Err(McpError::internal("the runner table lock is poisoned".to_string())),
        };
        match busy {
            None => Err(McpError::Server(ServerError::not_found(format!("runner {runner_id}")))), //~ tool_failure_as_protocol_error
            //~^ legacy_error_code
            Some(true) => Err(McpError::Server(ServerError::rate_limit(format!( //~ tool_failure_as_protocol_error
                "runner {runner_id} is running a job; drain it when the job ends"
            )))),
            //~^^^ legacy_error_code
            Some(false) => Ok(format!("runner {runner_id} drained: {reason}")),
        }
    }
}

fn main() {}
