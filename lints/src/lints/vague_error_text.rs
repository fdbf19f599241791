use crate::LintContext;

crate::declare_lint! {
    /// ### What it does
    /// TODO
    pub LINT,
    name: "vague_error_text",
    code: "MCP003",
    group: Style,
    level: Warn,
    summary: "error text says neither what failed nor what valid input looks like",
    since: "0.1.0",
    check: Some(check),
}

fn check(_cx: &mut LintContext<'_>) {}
