//@ rmcp = "2.2"
// rmcp 2.x. Helpers only tools reach whose rewrite would not type-check, or would change code the
// fix cannot see, get no fix: a helper whose value is kept in a variable, one a tool uses inside
// a closure, one a tool uses whose `Ok` is not the tool result, a method that returns a `Result`
// of its own, and a `From` impl that maps each variant in its own arm.
use rmcp::{
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{CallToolResult, ContentBlock},
    schemars, tool, tool_router, ErrorData as McpError,
};
use serde::Deserialize;

#[derive(Debug, thiserror::Error)]
pub enum QueueError {
    #[error("queue {0} is full")]
    Full(String),
    #[error("queue {0} is paused")]
    Paused(String),
}

impl From<QueueError> for McpError {
    fn from(e: QueueError) -> Self {
        match e {
            QueueError::Full(q) => McpError::internal_error(format!("queue {q} is full"), None), //~ tool_failure_as_protocol_error
            QueueError::Paused(q) => McpError::internal_error(format!("queue {q} is paused"), None), //~ tool_failure_as_protocol_error
        }
    }
}

fn busy(queue: &str) -> McpError {
    McpError::internal_error(format!("queue {queue} is busy"), None) //~ tool_failure_as_protocol_error
}

fn too_large(n: u32) -> McpError {
    McpError::internal_error(format!("{n} is above the limit"), None) //~ tool_failure_as_protocol_error
}

fn unnamed() -> McpError {
    McpError::internal_error("the job has no name", None) //~ tool_failure_as_protocol_error
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct JobArgs {
    pub queue: String,
    pub sizes: Vec<u32>,
}

pub struct Jobs {
    queues: std::collections::HashMap<String, Vec<u32>>,
    tool_router: ToolRouter<Self>,
}

impl Jobs {
    fn push(&mut self, queue: &str, size: u32) -> Result<(), QueueError> {
        let q = self.queues.get_mut(queue).ok_or_else(|| QueueError::Paused(queue.to_string()))?;
        if q.len() > 100 {
            return Err(QueueError::Full(queue.to_string()));
        }
        q.push(size);
        Ok(())
    }

    /// Returns a `Result` of its own: its callers' `?` would need the error type it no longer has.
    fn capacity(&self, queue: &str) -> Result<usize, McpError> {
        let q = self.queues.get(queue).ok_or_else(|| McpError::internal_error(format!("no queue {queue}"), None))?; //~ tool_failure_as_protocol_error
        Ok(100 - q.len())
    }
}

#[tool_router]
impl Jobs {
    #[tool(description = "Submit a job")]
    async fn submit(&mut self, Parameters(args): Parameters<JobArgs>) -> Result<CallToolResult, McpError> {
        if self.queues.get(&args.queue).is_some_and(|q| q.len() > 50) {
            // Kept in a variable before it is returned.
            let error = busy(&args.queue);
            return Err(error);
        }
        // Inside a closure: `return` there would leave the closure.
        let total = args
            .sizes
            .iter()
            .map(|n| if *n > 1000 { Err(too_large(*n)) } else { Ok(*n) })
            .sum::<Result<u32, McpError>>()?;
        let free = self.capacity(&args.queue)?;
        self.push(&args.queue, total)?;
        Ok(CallToolResult::success(vec![ContentBlock::text(format!("{free} slots left"))]))
    }

    #[tool(description = "Name a job")]
    async fn name(&self, Parameters(args): Parameters<JobArgs>) -> Result<String, McpError> {
        // The tool's `Ok` is its text, not a `CallToolResult`: no isError result to return.
        if args.queue.is_empty() {
            return Err(unnamed());
        }
        Ok(args.queue)
    }
}
