//! The tools' arguments. Their doc comments become the `inputSchema` descriptions an agent
//! reads, so they say what to pass and what each value does. Unknown fields are rejected (rmcp
//! turns the deserialization error into an `isError` result naming the field and the known
//! ones), so a misspelt `path` cannot silently lint the wrong thing.

use lints::ProtocolVersion;
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::Deserialize;

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LintArgs {
    /// Files or directories to lint, absolute or relative to the server's working directory.
    /// Each file's whole crate is read for context (helpers, `impl From`, Cargo.toml);
    /// findings are reported for these paths only. Leave empty when passing `source`.
    #[serde(default)]
    pub paths: Vec<String>,
    /// Rust source text to lint instead of files on disk, e.g. a file you are about to write.
    #[serde(default)]
    pub source: Option<String>,
    /// The path `source` is reported under, e.g. `src/tools.rs` (default `src/lib.rs`); a file
    /// under `tests/` or `benches/` counts as test code.
    #[serde(default)]
    pub source_path: Option<String>,
    /// The rmcp version `source` is written against, e.g. `3.11` or `1.8`: it picks the fix
    /// the help suggests (`ContentBlock::text` from 2.0, `Content::text` before). Without it
    /// the imports decide. Files on disk use their Cargo.toml instead.
    #[serde(default)]
    pub rmcp_version: Option<String>,
    /// The MCP specification version to check against. Default: `target-protocol` from the
    /// project's mcp-lint.toml, else for a server that speaks JSON-RPC by hand the newest
    /// `protocolVersion` its source declares, else the latest (2026-07-28).
    #[serde(default)]
    #[schemars(schema_with = "protocol_schema")]
    pub target_protocol: Option<String>,
    /// Glob patterns of files to leave out of the report, matched against paths relative to
    /// the working directory; a pattern without `/` matches any file or directory name, e.g.
    /// `["tests", "generated/**"]`. Added to the config's `exclude`.
    #[serde(default)]
    pub exclude: Vec<String>,
    /// Lint test code too (`#[cfg(test)]`, `#[test]`, `tests/`, `benches/`). Default false:
    /// tests and mocks build error results on purpose.
    #[serde(default)]
    pub include_tests: bool,
    /// A configuration file to use instead of the `mcp-lint.toml` (or Cargo.toml
    /// `[package.metadata.mcp-lint]`) found next to the paths.
    #[serde(default)]
    pub config: Option<String>,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FixPreviewArgs {
    /// Files or directories, absolute or relative to the server's working directory.
    pub paths: Vec<String>,
    /// Glob patterns of files to leave out, as in `lint`.
    #[serde(default)]
    pub exclude: Vec<String>,
    /// The MCP specification version to check against, as in `lint`.
    #[serde(default)]
    #[schemars(schema_with = "protocol_schema")]
    pub target_protocol: Option<String>,
    /// A configuration file to use instead of the one found next to the paths.
    #[serde(default)]
    pub config: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExplainArgs {
    /// A lint name (`vague_error_text`), code (`MCP003`) or group (`style`), as shown in a
    /// finding or by the `rules` tool.
    pub lint: String,
}

/// `target_protocol`: one of the known versions or `latest` (the lints crate's list), or null.
fn protocol_schema(_: &mut SchemaGenerator) -> Schema {
    let mut names: Vec<serde_json::Value> = ProtocolVersion::ALL
        .iter()
        .map(|v| v.as_str())
        .chain(["latest"])
        .map(serde_json::Value::from)
        .collect();
    names.push(serde_json::Value::Null);
    json_schema!({
        "type": ["string", "null"],
        "enum": names,
    })
}
