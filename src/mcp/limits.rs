//! What one tool call may take and return (see the module docs of [`crate::mcp`]).

/// Files reported on per call.
pub const MAX_FILES: usize = 250;
/// Findings listed per call.
pub const MAX_FINDINGS: usize = 100;
/// Text per result, in bytes (about 12k tokens).
pub const MAX_TEXT_BYTES: usize = 48 * 1024;
/// Inline `source` per call, in bytes.
pub const MAX_SOURCE_BYTES: usize = 1024 * 1024;
