crate::declare_lint! {
    /// ### What it does
    /// TODO
    pub LINT,
    name: "internal_error",
    code: "MCP901",
    group: Meta,
    level: Deny,
    summary: "mcp-lint itself failed while analysing a crate",
    since: "0.1.0",
    check: None,
}
