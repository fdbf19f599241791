crate::declare_lint! {
    /// ### What it does
    /// TODO
    pub LINT,
    name: "suppression_without_reason",
    code: "MCP903",
    group: Meta,
    level: Warn,
    summary: "a suppression that does not say why",
    since: "0.1.0",
    check: None,
}
