//! MCP Server Tools Module
//!
//! This module contains all the tools available through the MCP server,
//! including symbol analysis, project analysis, and LSP helper functions.

pub mod analyze_symbols;
pub mod lsp_helpers;
pub mod project_tools;
pub mod search_symbols;
pub mod utils;

#[cfg(feature = "clangd-integration-tests")]
pub mod tests;
