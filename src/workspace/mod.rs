//! The project on disk: discovery of crates and files, Cargo.toml, configuration, the result
//! cache, the prefilter and path helpers.

pub mod cache;
pub mod config;
pub mod discover;
pub mod kept;
pub mod manifest;
pub mod paths;
pub mod prefilter;
