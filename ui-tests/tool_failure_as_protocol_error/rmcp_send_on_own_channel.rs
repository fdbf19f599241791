//@ rmcp = "3.11"
//@ dep: tokio = "1"
//@ dep: serde = "1"
// Sending on the server's own in-process channel fails only when the server's own receiver is
// gone (its worker or actor died): a server fault, where -32603 is right. The sender is the
// server's when a field or parameter is declared `mpsc::Sender<..>`, when the body made the
// channel, or when a crate fn returns it (`-> Result<(String, mpsc::Sender<Command>), E>`), also
// under a deadline (`timeout(WAIT, tx.send(cmd))`). Reported: sending to a peer over a socket,
// which fails on the network the tool talks to.
use rmcp::{
    handler::server::wrapper::Parameters, model::*, schemars, tool, tool_router,
    ErrorData as McpError,
};
use serde::Deserialize;
use tokio::sync::{mpsc, oneshot};

pub enum Command {
    Add { text: String, reply: oneshot::Sender<usize> },
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct AddArgs {
    pub text: String,
    pub session: String,
}

pub struct Notes {
    worker: mpsc::Sender<Command>,
    peer: tokio::net::UdpSocket,
}

impl Notes {
    async fn session_sender(&self, session: &str) -> Result<(String, mpsc::Sender<Command>), McpError> {
        Ok((session.to_string(), self.worker.clone()))
    }
}

#[tool_router]
impl Notes {
    #[tool(description = "Add a note")]
    async fn add(&self, Parameters(args): Parameters<AddArgs>) -> Result<CallToolResult, McpError> {
        let (reply, rx) = oneshot::channel();
        self.worker
            .send(Command::Add { text: args.text.clone(), reply })
            .await
            .map_err(|_| McpError::internal_error("note worker stopped", None))?;
        let n = rx.await.map_err(|_| McpError::internal_error("no answer", None))?;
        Ok(CallToolResult::success(vec![ContentBlock::text(n.to_string())]))
    }

    #[tool(description = "Add a note to a session")]
    async fn add_to(&self, Parameters(args): Parameters<AddArgs>) -> Result<CallToolResult, McpError> {
        let (_id, tx) = self.session_sender(&args.session).await?;
        let (reply, rx) = oneshot::channel();
        tokio::time::timeout(std::time::Duration::from_secs(5), tx.send(Command::Add { text: args.text, reply }))
            .await
            .map_err(|_| McpError::internal_error("timed out sending to the session actor", None))?
            .map_err(|_| McpError::internal_error("session actor stopped", None))?;
        let n = rx.await.map_err(|_| McpError::internal_error("no answer", None))?;
        Ok(CallToolResult::success(vec![ContentBlock::text(n.to_string())]))
    }

    #[tool(description = "Send a note to the peer")]
    async fn share(&self, Parameters(args): Parameters<AddArgs>) -> Result<CallToolResult, McpError> {
        self.peer
            .send(args.text.as_bytes())
            .await
            .map_err(|e| McpError::internal_error(format!("peer unreachable: {e}"), None))?; //~ tool_failure_as_protocol_error
        let (tx, mut rx) = mpsc::channel(1);
        tx.send(args.text.len()).await.map_err(|_| McpError::internal_error("queue closed", None))?;
        let n = rx.recv().await.unwrap_or_default();
        Ok(CallToolResult::success(vec![ContentBlock::text(n.to_string())]))
    }
}
