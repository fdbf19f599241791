declare_lint! {
    /// ### What it does
    /// Reports that mcp-lint itself failed while analysing a crate (a bug such as a panic in a lint). The
    /// finding is placed at line 1 of each file of that crate; other crates are still analysed. Because
    /// the tool could not do its job, the run exits with code 2, not 1.
    ///
    /// ### Why is this bad?
    /// The crate was not checked, so an empty report for it would be a lie. Exit code 2 lets CI tell
    /// "mcp-lint is broken" apart from "the code has findings".
    ///
    /// ### Example
    /// ```text
    /// src/server.rs:1:1: error[MCP901/internal_error]: mcp-lint failed while analysing this crate: <panic message>
    /// ```
    ///
    /// ### Use instead
    /// There is no code to change. Please report the bug with the panic message and, if you can, the file
    /// that triggers it. To keep CI running meanwhile, exclude that file with `exclude` in the
    /// configuration.
    ///
    /// ### Known problems
    /// A failure is reported per crate, not per file: one bad file takes the whole crate's analysis down,
    /// and the finding cannot name the file that caused it.
    ///
    /// ### Spec
    /// Not an MCP rule: this lint is about mcp-lint itself.
    pub LINT,
    name: "internal_error",
    code: "MCP901",
    group: Meta,
    level: Deny,
    summary: "mcp-lint itself failed while analysing a crate",
    since: "0.1.0",
    check: None,
}
