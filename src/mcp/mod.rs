//! `mcp-lint mcp`: mcp-lint as an MCP server on stdin/stdout, so coding agents can lint the MCP
//! servers they write. Tools: `lint`, `explain`, `fix_preview`, `rules` (see [`server`]).
//!
//! stdout carries JSON-RPC only: nothing in this module or below prints (the analysis does no
//! I/O, the reporters write to the buffers they are given), and `crate::run` dispatches here
//! before it touches stdout. Messages about the server itself go to stderr.
//!
//! Limits per call, so a result fits an agent's context:
//! - at most [`MAX_FILES`] files reported on; more is an `isError` result naming the largest
//!   sub-directories to pass instead, or `exclude` patterns to add;
//! - at most [`MAX_FINDINGS`] findings and [`MAX_TEXT_BYTES`] of text; more findings are cut
//!   (text and `structuredContent` alike), with a note and a `truncated` field saying how many
//!   were left out and how to see them;
//! - inline `source` of at most [`MAX_SOURCE_BYTES`].

mod fixes;
mod limits;
mod params;
mod render;
mod roots;
mod server;
pub mod transport;
mod work;

pub use limits::{MAX_FILES, MAX_FINDINGS, MAX_SOURCE_BYTES, MAX_TEXT_BYTES};
pub use server::LintServer;

use rmcp::ServiceExt;

/// Serve until the client closes stdin. Exit code 0, or 2 when the server could not start or
/// the transport failed.
pub fn serve() -> i32 {
    let cwd = match std::env::current_dir() {
        Ok(cwd) => cwd,
        Err(e) => {
            eprintln!("mcp-lint mcp: cannot determine the current directory: {e}");
            return 2;
        }
    };
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("mcp-lint mcp: cannot start the async runtime: {e}");
            return 2;
        }
    };
    let code = runtime.block_on(async move {
        let service = match LintServer::new(cwd).serve(transport::stdio()).await {
            Ok(service) => service,
            Err(e) => {
                eprintln!("mcp-lint mcp: the client did not complete initialization: {e}");
                return 2;
            }
        };
        match service.waiting().await {
            Ok(_) => 0,
            Err(e) => {
                eprintln!("mcp-lint mcp: the server stopped: {e}");
                2
            }
        }
    });
    // A tool still running (its result no longer wanted) does not keep the process alive.
    runtime.shutdown_background();
    code
}
