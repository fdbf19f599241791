//! Server handler module
//!
//! Provides the MCP handler implementation.

mod standard;

pub use standard::*;
