use crate::LintContext;

crate::declare_lint! {
    /// ### What it does
    /// TODO
    pub LINT,
    name: "empty_error_content",
    code: "MCP002",
    group: Correctness,
    level: Deny,
    summary: "an isError tool result carries no readable content",
    since: "0.1.0",
    check: Some(check),
}

fn check(_cx: &mut LintContext<'_>) {}
