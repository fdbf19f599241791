use crate::LintContext;

crate::declare_lint! {
    /// ### What it does
    /// TODO
    pub LINT,
    name: "panic_in_tool",
    code: "MCP010",
    group: Restriction,
    level: Allow,
    summary: "a panic in tool context takes the whole call down",
    since: "0.1.0",
    check: Some(check),
}

fn check(_cx: &mut LintContext<'_>) {}
