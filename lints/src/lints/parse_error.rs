use crate::diagnostic::Diagnostic;
use crate::model::{FileId, Model};
use crate::source::Span;

declare_lint! {
    /// ### What it does
    /// Reports a file mcp-lint could not read or parse: a syntax error, a file that is not UTF-8 (or is
    /// binary), or a file nested too deeply to analyse safely. The file is skipped and every other file is
    /// still linted. The level is error, so the run exits with code 1.
    ///
    /// ### Why is this bad?
    /// mcp-lint cannot see any tool, helper or const in a skipped file. Its findings are missing, and
    /// findings elsewhere in the crate can be incomplete, because helpers, consts and `impl From` found in
    /// the skipped file are unknown. A clean run must not hide that.
    ///
    /// ### Example
    /// ```text
    /// // src/tools.rs
    /// #[tool(description = "Add two numbers")]
    /// async fn add(&self, Parameters(args): Parameters<Add> -> String {
    /// ```
    ///
    /// ### Use instead
    /// Fix the syntax (`cargo check` shows the same error). For a file that is not meant to be Rust
    /// source, or generated code you do not want linted, exclude it:
    /// ```toml
    /// exclude = ["generated/**"]
    /// ```
    ///
    /// ### Known problems
    /// - mcp-lint parses with `syn` 2. Syntax newer than that (or nightly-only syntax) may be reported as
    ///   a parse error although rustc accepts it; please report such a case.
    /// - Files nested more than 512 brackets deep are skipped on purpose, to stay within the stack,
    ///   and so are files larger than 8 MiB, to stay within memory.
    ///
    /// ### Spec
    /// Not an MCP rule: this lint is about mcp-lint itself. mcp-lint only reads source text and never
    /// compiles or runs the code it checks.
    pub LINT,
    name: "parse_error",
    code: "MCP900",
    group: Meta,
    level: Deny,
    summary: "a file mcp-lint could not read or parse",
    since: "0.1.0",
    check: None,
}

/// One `parse_error` finding per file that could not be decoded or parsed. Not a `check`: it
/// runs whether or not the crate is an MCP server, before the lints.
pub fn findings(model: &Model) -> Vec<(FileId, Diagnostic)> {
let lint = &LINT;
model.files
        .iter()
        .enumerate()
        .filter_map(|(i, f)| {
            let failure = f.failure.as_ref()?;
            let span = match (&f.source, failure.at) {
                (Some(src), Some((a, b))) => src.span(a, b),
                _ => Span {
                    start_line: 1,
                    start_column: 1,
                    end_line: 1,
                    end_column: 1,
                    ..Span::default()
                },
            };
            let d = Diagnostic::new(lint, span, failure.message.clone())
                .with_note("mcp-lint skipped this file; every other file was still linted");
            Some((FileId(i), d))
        })
        .collect()
}
