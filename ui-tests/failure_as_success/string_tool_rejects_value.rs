//@ rmcp = "2.1"
// A `#[tool]` fn declared `-> String` answers every outcome as a success result: an early
// `return` of a text that rejects the value it was given ("unknown source agent: ..", "invalid
// limit: ..") or that opens with an `<error>` tag is its failure told as success. A value that
// merely starts with such a word ("Unknown artist", no colon after it) is data.
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{schemars, tool, tool_handler, tool_router, ServerHandler};
use serde::Deserialize;

#[derive(Deserialize, schemars::JsonSchema)]
pub struct Convert {
    from: String,
    to: String,
    limit: i64,
}

#[derive(Clone, Copy)]
enum Agent {
    Claude,
    Codex,
}

impl Agent {
    fn parse(s: &str) -> Option<Agent> {
        Some(match s {
            "claude" => Agent::Claude,
            "codex" => Agent::Codex,
            _ => return None,
        })
    }
}

#[derive(Clone)]
pub struct Baton {
    tool_router: ToolRouter<Baton>,
}

#[tool_handler]
impl ServerHandler for Baton {}

#[tool_router]
impl Baton {
    #[tool(description = "Convert a session between agents")]
    fn convert(&self, Parameters(p): Parameters<Convert>) -> String {
        let from = match Agent::parse(&p.from) {
            Some(a) => a,
            None => return format!("unknown source agent: {}", p.from), //~ failure_as_success
        };
        let to = match p.to.as_str() {
            "claude" => Agent::Claude,
            "codex" => Agent::Codex,
            _ => return format!("unknown target agent: {}", p.to), //~ failure_as_success
        };
        if p.limit < 1 {
            return "<error>limit must be at least 1</error>".to_string(); //~ failure_as_success
        }
        format!("converted {} to {}", from as u8, to as u8)
    }

    #[tool(description = "The artist of a track")]
    fn artist(&self, Parameters(p): Parameters<Convert>) -> String {
        if p.from.is_empty() {
            return "Unknown artist".to_string();
        }
        format!("{} by {}", p.from, p.to)
    }
}

fn main() {}
