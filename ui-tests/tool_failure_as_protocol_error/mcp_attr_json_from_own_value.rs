//@ dep: mcp-attr = "0.0.7"
//@ dep: serde = { version = "1", features = ["derive"] }
// mcp-attr 0.0.7: `Json::from(&value)` is `serde_json::to_string_pretty(value)` of the server's
// own value; its `?` fails only on a server fault, where a JSON-RPC error (-32603) is right. A
// `?` on reading a file the model named is the tool's failure.
use mcp_attr::server::{mcp_server, McpServer};
use mcp_attr::utils::Json;
use mcp_attr::Result;
use serde::Serialize;

#[derive(Serialize)]
struct Stats {
    lines: usize,
}

struct Counter;

#[mcp_server]
impl McpServer for Counter {
    /// Count the lines of a file.
    #[tool]
    async fn line_stats(&self, path: String) -> Result<Json<Stats>> {
        let text = std::fs::read_to_string(&path)?; //~ tool_failure_as_protocol_error
        let stats = Stats { lines: text.lines().count() };
        Ok(Json::from(&stats)?)
    }
}

fn main() {}
