//! Core type definitions for Foundry

pub mod edit_commands;
pub mod project;
pub mod responses;
pub mod spec;

pub use edit_commands::*;
pub use project::*;
pub use responses::*;
pub use spec::*;
