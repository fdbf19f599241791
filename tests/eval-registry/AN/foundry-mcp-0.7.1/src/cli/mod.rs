//! CLI command definitions and routing

pub mod args;
pub mod commands;

pub use args::*;
pub use commands::*;
