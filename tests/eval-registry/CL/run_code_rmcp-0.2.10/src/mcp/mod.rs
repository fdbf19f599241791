mod mcp_server;

pub use mcp_server::{CodeRunRequest, CodeRunnerService};
