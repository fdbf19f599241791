//! WhiteMagic MCP — model context protocol server
//!
//! Pure Rust JSON-RPC over stdio. Exposes a single `wm` fractal tool
//! that auto-routes to all internal tools.
//!
//! With the `python` feature, also provides PyO3 bindings for use as a
//! Python extension module (`whitemagic_v5`).

// wm-mcp has an FFI boundary (PyO3 bridge), so we use `deny` instead of
// `forbid` — the pyo3_bridge module can locally allow unsafe for PyO3 macros.
#![deny(unsafe_code)]

pub mod anchor;
pub mod boundary_matrix;
pub mod config;
pub mod contract;
pub mod cyberbrain;
pub mod daemon;
pub mod gateway;
pub mod grimoire;
pub mod ingest;
pub mod ingest_tool;
pub mod input_validation;
pub mod landlock_sandbox;
pub mod ledger;
pub mod manifest;
pub mod migrate;
pub mod network_audit;
pub mod offline_docs;
pub mod opencode;
pub mod report;
pub mod resources;
pub mod seal;
pub mod selftest;
pub mod server;
pub mod setup;
pub mod stats_view;
pub mod status;
pub mod store_busy;
pub mod telemetry_view;
pub mod trust_admin;
pub mod update;

#[cfg(test)]
mod contract_tests;

#[cfg(test)]
mod effect_audit;

pub use input_validation::{
    DEFAULT_MAX_REQUESTS_PER_SESSION, DEFAULT_RATE_LIMIT_RPM, MAX_PARAMS_SIZE, MAX_REQUEST_SIZE,
    MAX_STRING_LEN, RateWindow, RequestBudget, ValidationResult, validate_request,
    validate_tool_call_params, validate_tools_call,
};
pub use server::McpServer;

#[cfg(feature = "python")]
pub mod pyo3_bridge;
