crate::declare_lint! {
    /// ### What it does
    /// TODO
    pub LINT,
    name: "parse_error",
    code: "MCP900",
    group: Meta,
    level: Deny,
    summary: "a file mcp-lint could not read or parse",
    since: "0.1.0",
    check: None,
}
