crate::declare_lint! {
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
