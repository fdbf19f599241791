//! LeIndex - Unified semantic code search engine
//!
//! This crate provides a complete code indexing and search solution
//! with the following modules:
//!
//! - `parse`: Code parsing and AST generation
//! - `graph`: Dependency graph construction
//! - `storage`: Persistent storage layer
//! - `search`: Vector search engine with INT8 quantization
//! - `phase`: Multi-phase indexing pipeline
//! - `cli`: Command-line interface
//! - `global`: Global operations
//! - `server`: HTTP API server
//! - `edit`: Code editing utilities
//! - `validation`: Index validation tools
//!
//! ## Installation
//!
//! ```bash
//! cargo install leindex
//! ```
//!
//! ## Usage
//!
//! ```rust,ignore
//! use leindex::search::SearchEngine;
//!
//! // Initialize search
//! let engine = SearchEngine::new();
//! ```

#![cfg_attr(docsrs, feature(doc_auto_cfg))]
#![warn(missing_docs)]
#![warn(rust_2018_idioms)]

/// Fast deterministic hasher and map/set aliases for internal indexes.
pub mod fast_hash;

// Core modules (base of dependency DAG)
#[cfg(feature = "parse")]
pub mod parse;

#[cfg(feature = "graph")]
pub mod graph;

#[cfg(feature = "storage")]
pub mod storage;

#[cfg(feature = "search")]
pub mod search;

// Extended modules
#[cfg(feature = "phase")]
pub mod phase;

#[cfg(feature = "cli")]
pub mod cli;

#[cfg(feature = "global")]
pub mod global;

#[cfg(feature = "server")]
pub mod server;

#[cfg(feature = "edit")]
pub mod edit;

#[cfg(feature = "validation")]
pub mod validation;

/// SCIP-backed precision ingestion and PDG merge helpers.
#[cfg(feature = "precision")]
pub mod intel;

/// Shared directory exclusions used by graph and CLI traversals.
#[cfg(any(feature = "graph", feature = "cli"))]
pub mod skip_dirs;

/// User configuration shared by CLI and ONNX worker code.
#[cfg(any(feature = "cli", feature = "onnx"))]
pub mod config;

/// Single process-wide mutex shared by every test that mutates environment
/// state. Module-local locks do not serialize across modules, and `cargo test`
/// runs tests on parallel threads, so env mutation needs one lock for the whole
/// binary. Compiled out of release builds.
#[cfg(test)]
pub mod test_env;

/// Managed model-server service lifecycle (`[services.<name>]` sections).
#[cfg(any(feature = "cli", feature = "onnx"))]
pub mod services;

/// ONNX worker protocol and implementation.
///
/// Public for package worker binary and integration tests; not stable user API.
#[cfg(feature = "onnx")]
#[doc(hidden)]
pub mod embed;

// Feature flag infrastructure (always available)
pub mod feature_flags;

// Cross-version artifact migration (§12.2). Reads and writes the SQLite/CAS
// stores, so it exists whenever the `storage` feature does.
#[cfg(feature = "storage")]
pub mod migration;

// Fair bounded scheduler (always available; gated at runtime by
// LEINDEX_FEATURE_BOUNDED_SCHEDULER)
pub mod scheduler;

// Model evaluation harness (always available; pure-Rust metrics + corpus)
// WS11 Tasks 1-3: gates, corpus, metrics, fused-retrieval harness.
pub mod eval;

// Observability infrastructure (always available)
pub mod observability;

// Re-exports for backward compatibility
// Users can use either `leindex::parse` or `leindex::leparse`

#[cfg(feature = "parse")]
#[doc(hidden)]
pub use parse as leparse;

#[cfg(feature = "graph")]
#[doc(hidden)]
pub use graph as legraphe;

#[cfg(feature = "storage")]
#[doc(hidden)]
pub use storage as lestockage;

#[cfg(feature = "search")]
#[doc(hidden)]
pub use search as lerecherche;

#[cfg(feature = "phase")]
#[doc(hidden)]
pub use phase as lephase;

#[cfg(feature = "cli")]
#[doc(hidden)]
pub use cli as lepasserelle;

#[cfg(feature = "global")]
#[doc(hidden)]
pub use global as leglobal;

#[cfg(feature = "server")]
#[doc(hidden)]
pub use server as leserve;

#[cfg(feature = "edit")]
#[doc(hidden)]
pub use edit as leedit;

#[cfg(feature = "validation")]
#[doc(hidden)]
pub use validation as levalidation;

// Public API re-exports for convenience

#[cfg(feature = "search")]
pub use search::SearchEngine;

#[cfg(feature = "cli")]
pub use cli::Cli;
