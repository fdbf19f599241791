/// Memory node structures and operations
pub mod node;
/// Core memory primitive types, errors, and configurations
pub mod types;

pub use node::*;
pub use types::*;
