//! Tool implementations for the `VoidCrawl` MCP server.
//!
//! Each sub-module declares a `#[tool_router]` impl block on
//! `VoidCrawlServer` and returns its own named router function
//! (e.g. `fetch_router`). `server.rs` composes them in `new()`.

pub mod actions;
pub mod challenge;
pub mod download;
pub mod fetch;
pub mod interrupt;
pub mod introspect;
pub mod network;
pub mod profile_registry;
pub mod recording;
pub mod screenshot;
pub mod selector;
pub mod session;
pub mod snapshot;
pub mod viewport;
pub mod wait;
