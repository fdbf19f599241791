//! Helpers shared by the unit tests.

use std::path::Path;

/// Write `text` to `dir/rel`, creating parent directories.
pub fn write(dir: &Path, rel: &str, text: &str) {
    let path = dir.join(rel);
    std::fs::create_dir_all(path.parent().expect("has parent")).expect("mkdir");
    std::fs::write(path, text).expect("write");
}

/// `src/tools.rs`: a tool whose `?` reports what a helper in the same file builds.
pub const TOOLS: &str = "fn check(x: &str) -> Result<(), McpError> {\n    \
    Err(McpError::internal_error(\"bad\", None))\n}\n\n\
    fn read(&self) -> Result<CallToolResult, McpError> {\n    check(\"x\")?;\n    \
    load(\"y\")?;\n    Ok(CallToolResult::success(vec![]))\n}\n";
/// `src/helpers.rs`: a helper whose line has a character of two UTF-16 units before the error.
pub const HELPERS: &str =
    "fn load(p: &str) -> Result<(), McpError> {\n    let _ = \"🦀\"; Err(McpError::invalid_params(\"no\", None))\n}\n";

/// The span of `needle` in `text` (of the file `path`).
pub fn span_of(path: &str, text: &str, needle: &str) -> lints::Span {
    let file = lints::SourceFile::new(path.into(), text.to_string());
    let start = text.find(needle).expect("needle in text");
    file.span(start, start + needle.len())
}

/// Reports of `src/tools.rs` (one MCP001 finding at `check("x")?` with two related locations:
/// where `check` builds the error, in the same file, and where `load` does, in
/// `src/helpers.rs`) and of `src/helpers.rs` (no findings).
pub fn related_reports() -> Vec<lints::FileReport> {
    use std::sync::Arc;
    let lint = lints::registry::find("MCP001").expect("MCP001 is registered");
    let d = lints::Diagnostic::new(
        lint,
        span_of("src/tools.rs", TOOLS, "check(\"x\")?"),
        "tool `read` reports -32603",
    )
    .with_help("return a tool result")
    .with_related(
        "src/tools.rs",
        span_of(
            "src/tools.rs",
            TOOLS,
            "McpError::internal_error(\"bad\", None)",
        ),
        "`check` builds the error here",
    )
    .with_related(
        "src/helpers.rs",
        span_of(
            "src/helpers.rs",
            HELPERS,
            "McpError::invalid_params(\"no\", None)",
        ),
        "`load` builds the error here",
    );
    let report = |path: &str, text: &str, diagnostics| lints::FileReport {
        path: path.into(),
        source: Some(Arc::new(lints::SourceFile::new(
            path.into(),
            text.to_string(),
        ))),
        diagnostics,
    };
    vec![
        report("src/helpers.rs", HELPERS, Vec::new()),
        report("src/tools.rs", TOOLS, vec![d]),
    ]
}
