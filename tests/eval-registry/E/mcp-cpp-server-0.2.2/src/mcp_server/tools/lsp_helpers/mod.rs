//! LSP Helper Functions
//!
//! This module contains helper functions that wrap LSP operations with
//! domain-specific logic for C++ code analysis.

pub mod call_hierarchy;
pub mod definitions;
pub mod document_symbols;
pub mod examples;
pub mod hover;
pub mod members;
pub mod symbol_resolution;
pub mod type_hierarchy;
pub mod workspace_symbols;
