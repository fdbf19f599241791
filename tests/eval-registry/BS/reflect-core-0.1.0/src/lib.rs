pub mod dedup;
pub mod error;
pub mod pattern;
pub mod storage;
pub mod types;

pub use error::{ReflectError, Result};
pub use storage::Storage;
pub use types::*;
