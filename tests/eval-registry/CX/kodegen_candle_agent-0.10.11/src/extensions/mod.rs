pub mod alfred;
pub mod common;
pub mod raycast;

pub use common::{ExtensionError, Result};
