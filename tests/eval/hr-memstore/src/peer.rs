//! Client side: push entries to another memstore over its HTTP JSON-RPC endpoint.

use serde_json::{json, Value};

use crate::protocol::{CallToolResult, Content, Response};

/// The peer answers -32001 while it is still loading its store.
const PEER_LOADING: i64 = -32001;

pub struct PeerClient {
    pub url: String,
    agent: ureq::Agent,
}

impl PeerClient {
    pub fn new(url: String) -> Self {
        Self {
            url,
            agent: ureq::AgentBuilder::new()
                .timeout(std::time::Duration::from_secs(10))
                .build(),
        }
    }

    fn call(&self, id: u64, name: &str, arguments: Value) -> Result<CallToolResult, String> {
        let request = json!({
            "jsonrpc": "2.0",
            "id": id,
            "method": "tools/call",
            "params": { "name": name, "arguments": arguments }
        });
        for _attempt in 0..3 {
            let response: Response = self
                .agent
                .post(&self.url)
                .send_json(&request)
                .map_err(|e| format!("{} unreachable: {e}", self.url))?
                .into_json()
                .map_err(|e| format!("{} sent an unreadable response: {e}", self.url))?;
            if let Some(error) = response.error {
                if error.code == PEER_LOADING {
                    std::thread::sleep(std::time::Duration::from_millis(500));
                    continue;
                }
                return Err(format!("peer error {}: {}", error.code, error.message));
            }
            let result = response.result.ok_or("peer response has neither result nor error")?;
            return serde_json::from_value(result).map_err(|e| format!("peer result is not a tool result: {e}"));
        }
        Err(format!("{} is still loading its store; try again later", self.url))
    }

    /// Push entries with `remember` calls; stops at the first entry the peer rejects.
    pub fn push(&self, namespace: &str, entries: &[(String, String)]) -> Result<usize, String> {
        for (i, (key, value)) in entries.iter().enumerate() {
            let result = self.call(
                i as u64 + 1,
                "remember",
                json!({ "namespace": namespace, "key": key, "value": value }),
            )?;
            if result.is_error {
                let text = result
                    .content
                    .iter()
                    .map(|Content::Text { text }| text.as_str())
                    .collect::<Vec<_>>()
                    .join(" ");
                return Err(format!("peer rejected {namespace}/{key}: {text}"));
            }
        }
        Ok(entries.len())
    }
}
