//! LSP MCP Server
//!
//! An MCP server that provides unified access to Language Server Protocol features
//! for multiple programming languages.
//!
//! # Features
//!
//! - Multi-language support (Rust, TypeScript, Python, Go, C/C++)
//! - Full IDE features exposed as MCP tools:
//!   - Hover (type info, documentation)
//!   - Go to Definition
//!   - Find References
//!   - Code Completion
//!   - Document Symbols
//!   - Workspace Symbols
//!   - Rename
//!   - Diagnostics
//!
//! # Usage
//!
//! ```no_run
//! use lsp_mcp::server::LspMcpServer;
//!
//! #[tokio::main]
//! async fn main() {
//!     let server = LspMcpServer::new();
//!     // Start the MCP server...
//! }
//! ```

pub mod error;
pub mod lsp;
pub mod server;
pub mod tools;

pub use error::{Language, LspMcpError, Result};
pub use lsp::{LanguageServerConfig, LanguageServerManager, LanguageServerRegistry, LspClient};
pub use server::LspMcpServer;
