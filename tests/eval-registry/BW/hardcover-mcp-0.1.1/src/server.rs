//! The MCP server: holds the shared client and dispatches tool calls.

use std::sync::Arc;

use rmcp::{
    handler::server::router::tool::ToolRouter,
    model::{Implementation, ServerCapabilities, ServerInfo},
    tool_handler, ServerHandler,
};

use crate::client::HardcoverClient;

const INSTRUCTIONS: &str = "\
This server manages the authenticated user's own Hardcover.app account: their \
reading library, ratings, progress, reviews, lists, and reading journal.

Conventions the tools expect:
- status values: want_to_read | currently_reading | read | paused | dnf | ignored
- privacy values: public | followers | private
- rating is a number from 0 to 5 in 0.5 steps (e.g. 3.5)
- book ids are integers; find them with the search tool before reading or \
mutating a specific book

The Hardcover API is rate limited to 60 requests per minute — batch related \
work and avoid tight loops.";

/// The Hardcover MCP server.
#[derive(Clone)]
pub struct HardcoverServer {
    pub(crate) client: Arc<HardcoverClient>,
    tool_router: ToolRouter<Self>,
}

impl HardcoverServer {
    /// Build the server, composing every tool router.
    pub fn new(token: String) -> anyhow::Result<Self> {
        let client = Arc::new(HardcoverClient::new(token)?);
        Ok(Self {
            client,
            tool_router: Self::profile_router()
                + Self::search_router()
                + Self::books_router()
                + Self::library_router()
                + Self::lists_router()
                + Self::journal_router(),
        })
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for HardcoverServer {
    fn get_info(&self) -> ServerInfo {
        // NB: rmcp's `Implementation::from_build_env()` bakes in rmcp's OWN crate
        // name/version (its `env!` resolves at rmcp's compile time), so it would
        // make the server misreport itself as "rmcp". Build the identity from our
        // crate's build env instead.
        let implementation = Implementation::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION"));
        ServerInfo::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(implementation)
            .with_instructions(INSTRUCTIONS)
    }
}
