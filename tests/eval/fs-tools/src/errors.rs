//! Mapping from I/O and other failures to MCP errors.

use std::fmt::Display;
use std::io;
use std::path::Path;

use crate::prelude::*;

/// An I/O failure on a workspace path.
pub fn io_error(path: &Path, e: io::Error) -> McpError {
    let what = match e.kind() {
        io::ErrorKind::NotFound => "no such file or directory",
        io::ErrorKind::PermissionDenied => "permission denied",
        io::ErrorKind::IsADirectory => "is a directory",
        _ => "I/O error",
    };
    McpError::internal_error(
        format!("{}: {what} ({e})", path.display()),
        Some(json!({ "path": path.display().to_string() })),
    )
}

/// Anything else that went wrong inside the server.
pub fn internal(e: impl Display) -> McpError {
    McpError::internal_error(e.to_string(), None)
}
