crate::declare_lint! {
    /// ### What it does
    /// TODO
    pub LINT,
    name: "unused_suppression",
    code: "MCP902",
    group: Meta,
    level: Warn,
    summary: "a suppression that suppresses nothing",
    since: "0.1.0",
    check: None,
}
