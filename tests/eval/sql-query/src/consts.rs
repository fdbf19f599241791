//! Limits and the error codes our v0.1 clients match on.

use rmcp::model::ErrorCode;

/// Rows returned by one query, at most.
pub const MAX_ROWS: usize = 500;

/// Statement timeout.
pub const STATEMENT_TIMEOUT_MS: u64 = 5_000;

/// Characters of rendered output, at most.
pub const MAX_OUTPUT_CHARS: usize = 200_000;

/// Sent when a statement runs longer than [`STATEMENT_TIMEOUT_MS`].
pub const QUERY_TIMEOUT: ErrorCode = ErrorCode(-32008);

/// Sent when a statement would write. Plain integer so the CLI can print it too.
pub const READ_ONLY_VIOLATION: i32 = -32001;

/// Sent when the rendered result exceeds [`MAX_OUTPUT_CHARS`].
pub const RESULT_TOO_LARGE: i32 = -32050;

/// SQLite's own "database is locked" result code, used for retry decisions.
pub const SQLITE_BUSY: i32 = 5;
