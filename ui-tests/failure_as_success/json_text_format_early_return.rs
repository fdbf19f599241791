//@ rmcp = "0.16"
// `-> String` tools that write their JSON answers as text: an `{"error": ..}` object built with
// `format!` and escaped braces, returned early from an argument check or a timed-out wait, says
// the call failed as a success result, as the raw literal `r#"{"error": ..}"#` does, with or
// without an `Err(e)` binding in sight. A `format!`-built answer whose `"error"` is `null`, or
// that carries no failure member, is the tool's data.
use std::time::Duration;

use rmcp::{
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    schemars, tool, tool_handler, tool_router, ServerHandler,
};
use serde::Deserialize;
use tokio::sync::oneshot;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct RunArgs {
    pub worker: String,
    pub n: u32,
}

#[derive(Clone)]
pub struct Pipeline {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Pipeline {
    #[tool(description = "Run a job on a worker")]
    async fn run(&self, Parameters(args): Parameters<RunArgs>) -> String {
        if args.n > 10 {
            //~v failure_as_success
            return format!("{{\"error\": \"n must be 0-10, got {}\"}}", args.n);
        }
        if !["fast", "slow"].contains(&args.worker.as_str()) {
            return format!(
                //~^ failure_as_success
                "{{\"error\": \"invalid worker: {}. Must be one of: fast, slow\"}}",
                args.worker
            );
        }
        let (tx, rx) = oneshot::channel::<String>();
        drop(tx);
        let answer = match tokio::time::timeout(Duration::from_secs(5), rx).await {
            Ok(Ok(text)) => text,
            Err(_) => {
                //~v failure_as_success
                return format!("{{\"error\": \"timed out after {}s\", \"worker\": \"{}\"}}", 5, args.worker);
            }
            Ok(Err(_)) => {
                return r#"{"error": "worker dropped the reply"}"#.to_string(); //~ failure_as_success
            }
        };
        format!("{{\"worker\": \"{}\", \"answer\": {}}}", args.worker, answer)
    }

    #[tool(description = "Describe a worker")]
    async fn describe(&self, Parameters(args): Parameters<RunArgs>) -> String {
        if args.n == 0 {
            return format!("{{\"worker\": \"{}\", \"error\": null, \"jobs\": {}}}", args.worker, args.n);
        }
        if args.n > 5 {
            return format!("{{\"worker\": \"{}\", \"busy\": true, \"jobs\": {}}}", args.worker, args.n);
        }
        format!("{{\"worker\": \"{}\", \"jobs\": {}}}", args.worker, args.n)
    }
}

#[tool_handler]
impl ServerHandler for Pipeline {}
