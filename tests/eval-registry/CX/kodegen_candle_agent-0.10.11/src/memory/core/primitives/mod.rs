//! Core memory primitives

pub mod metadata;
pub mod node;
pub mod relationship;
pub mod types;

pub use metadata::*;
pub use node::*;
pub use relationship::*;
pub use types::*;
