pub mod sandbox;
pub mod types;

pub use sandbox::{SandboxConfig, SandboxedOutput, execute_sandboxed};
pub use types::{ExtensionError, Result};
