//! Tests for memory module

pub mod schema;
