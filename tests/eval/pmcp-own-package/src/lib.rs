//! The SDK's library: it defines the error constructors, the codes and the tool wrappers that
//! the examples use. Its constructors build protocol errors by design; only its codes are judged.

pub mod error;
pub mod server;

pub use error::{Error, ErrorCode, Result};
pub use server::{RequestHandlerExtra, Server, SimpleTool, ToolHandler};
