// src/graph/mod.rs
//! Graph database abstraction and graph-based memory functionality.
//!
//! This module provides a comprehensive abstraction for graph operations,
//! entity and relationship modeling, and advanced query capabilities.

pub mod entity;
pub mod graph_db;

pub use entity::*;
pub use graph_db::*;

// Placeholder types for graph functionality
pub struct GraphTraversal;
