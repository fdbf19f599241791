//! The fuzz harness, shared by the cargo-fuzz targets and tests/fuzz_regressions.rs.

pub mod harness;
