pub mod figma;
pub mod server;
pub mod error;

pub use error::{Error, Result};