//@ rmcp = "3.11"
// The server's own tasks awaited after their handles were kept: a `JoinHandle` bound to a local
// (`let h = tokio::spawn(..); h.await`) or collected into a `Vec` the tool pushes spawned tasks
// into and awaited in a `for` over it. Awaiting a handle fails only with its `JoinError` (the task
// panicked or was cancelled): a server fault, as in the chained `tokio::spawn(..).await`, so
// -32603 is right and nothing is reported. What a task returns (an upstream call's failure) is
// the tool's own failure and is reported. The same holds for a handle a crate fn declared to
// return one makes (`fn spawn_probe(..) -> tokio::task::JoinHandle<..>`).
use rmcp::{model::*, tool, tool_router, ErrorData};

pub struct Projects {
    hosts: Vec<String>,
}

async fn probe(host: String) -> Result<bool, String> {
    tokio::net::TcpStream::connect((host.as_str(), 443))
        .await
        .map(|_| true)
        .map_err(|e| format!("{host}: {e}"))
}

fn spawn_probe(host: String) -> tokio::task::JoinHandle<Result<bool, String>> {
    tokio::spawn(probe(host))
}

#[tool_router]
impl Projects {
    #[tool(description = "Check the first project's host")]
    async fn first_project(&self) -> Result<CallToolResult, ErrorData> {
        let host = self.hosts.first().cloned().unwrap_or_default();
        let handle = spawn_probe(host);
        match handle.await {
            Ok(Ok(up)) => Ok(CallToolResult::success(vec![Content::text(up.to_string())])),
            Ok(Err(e)) => Err(ErrorData::internal_error(format!("probe failed: {e}"), None)), //~ tool_failure_as_protocol_error
            Err(join) => Err(ErrorData::internal_error(format!("probe task failed: {join}"), None)),
        }
    }

    #[tool(description = "Check every project's host")]
    async fn list_projects(&self) -> Result<CallToolResult, ErrorData> {
        let mut probes = Vec::new();
        for host in &self.hosts {
            probes.push(tokio::spawn(probe(host.clone())));
        }
        let mut up = 0;
        for handle in probes {
            let reachable = handle
                .await
                .map_err(|e| ErrorData::internal_error(format!("probe task failed: {e}"), None))?
                .map_err(|e| ErrorData::internal_error(format!("probe failed: {e}"), None))?; //~ tool_failure_as_protocol_error
            up += usize::from(reachable);
        }
        let counter = tokio::spawn(async move { up * 2 });
        let doubled = counter
            .await
            .map_err(|e| ErrorData::internal_error(format!("counter task failed: {e}"), None))?;
        Ok(CallToolResult::success(vec![Content::text(doubled.to_string())]))
    }
}
