// lepasserelle - Integration & API Layer
//
// *La Passerelle* (The Bridge) - Pure Rust orchestration, CLI, and MCP server
//
// This crate provides the integration and API layer for LeIndex, offering:
//
// - **LeIndex Orchestration**: Unified API for parsing, indexing, searching, and analysis
// - **CLI Interface**: Command-line tool for project indexing, search, and diagnostics
// - **MCP Server**: Model Context Protocol server for LLM tool integration
// - **Memory Management**: Automatic cache spilling and restoration with LRU eviction
//
// ## Features
//
// - `mcp-server` (default): MCP JSON-RPC server functionality
//
// ## Example
//
// ```no_run
// use leindex::cli::LeIndex;
//
// let leindex = LeIndex::new("/path/to/project")?;
// let stats = leindex.index_project()?;
// println!("Indexed {} files", stats.files_parsed);
//
// let results = leindex.search("authentication", 10)?;
// ```
//!
//! # LePasserelle - Integration & API Layer
//!
//! This crate provides the integration and API layer for LeIndex, offering:
//!
//! - **LeIndex Orchestration**: Unified API for parsing, indexing, searching, and analysis
//! - **CLI Interface**: Command-line tool for project indexing, search, and diagnostics
//! - **MCP Server**: Model Context Protocol server for LLM tool integration
//! - **Memory Management**: Automatic cache spilling and restoration with LRU eviction
//!
//! ## Features
//!
//! - `mcp-server` (default): MCP JSON-RPC server functionality
//!
//! ## Quick Start
//!
//! ```text
//! use leindex::cli::LeIndex;
//!
//! // Create a LeIndex instance for a project
//! let leindex = LeIndex::new("/path/to/project")?;
//!
//! // Index the project
//! let stats = leindex.index_project()?;
//! println!("Indexed {} files", stats.files_parsed);
//!
//! // Search for code
//! let results = leindex.search("authentication", 10)?;
//! for result in results {
//!     println!("{}: {}", result.symbol_name, result.file_path);
//! }
//! ```
//!
//! ## CLI Usage
//!
//! ```bash
//! # Index a project
//! leindex index /path/to/project
//!
//! # Search for code
//! leindex search "authentication"
//!
//! # Deep analysis
//! leindex analyze "How does authentication work?"
//!
//! # System diagnostics
//! leindex diagnostics
//! ```

#![warn(missing_docs)]
#![warn(unused_extern_crates)]

/// Stale artifact garbage collection.
pub mod cleanup;
#[allow(clippy::module_inception)]
/// Command-line interface definitions and handling.
pub mod cli;
/// Configuration for projects, languages, and storage.
pub mod config;
/// User-scoped daemon: endpoint discovery, startup lock, handshake
/// (spec §4.1, §4.2). Not feature-gated: the types are referenced from both
/// the inline server path and the daemon-client path.
pub mod daemon;
/// Error types and error handling logic.
pub mod errors;
/// Live Git porcelain-v2 status operations.
pub mod git;
/// Indexing pipeline: project parsing, PDG building, search indexing.
pub mod index_builder;
/// Cache subsystem: CacheSpiller, project scan, file stats cache.
pub mod index_cache;
/// Staleness detection: is_stale_fast, check_freshness, check_manifest_stale.
pub mod index_freshness;
/// Registry-owned resumable indexing job state.
pub mod index_job;
/// Core orchestration logic for indexing and search.
pub mod leindex;
/// Canonical project identity for live, non-hydrating MCP reads.
pub mod live_project;
/// Memory management and cache orchestration.
pub mod memory;
/// Memory cap enforcement (RSS monitoring and hard limits).
pub mod memory_cap;
/// Lightweight memory report for graceful shutdown.
pub mod memory_report;
/// Multi-project registry with per-project concurrency.
#[cfg(feature = "mcp-server")]
pub mod registry;
/// D-2 idle-engine eviction (sibling of `registry` so the Large-File gate
/// keeps breathing room — see `registry.rs` head count).
mod registry_evict;
/// Text-index lifecycle (locate, load, build) for the `find` search.
pub mod textindex;
/// File watcher for auto-reindex.
#[cfg(feature = "mcp-server")]
pub mod watcher;

/// Terminal UI (`leindex tui`).
#[cfg(feature = "tui")]
pub mod tui;

/// Model Context Protocol (MCP) server implementation.
#[cfg(feature = "mcp-server")]
pub mod mcp;

pub use cli::{Cli, Commands};
pub use config::{LanguageConfig, ProjectConfig, StorageConfig, TokenConfig};
pub use errors::{ErrorContext, LeIndexError, RecoveryStrategy, Result as LeIndexResult};
pub use leindex::{AnalysisResult as LeIndexAnalysisResult, Diagnostics, IndexStats, LeIndex};
pub use memory::{MemoryConfig as MemoryManagementConfig, MemoryManager};

#[cfg(feature = "mcp-server")]
pub use mcp::{
    JsonRpcError, JsonRpcRequest, JsonRpcResponse, McpServer, McpServerConfig, error_codes,
};
#[cfg(feature = "mcp-server")]
pub use registry::ProjectRegistry;

/// Library initialization
pub fn init() {
    let _ = tracing::subscriber::set_default(tracing::subscriber::NoSubscriber::default());
}
