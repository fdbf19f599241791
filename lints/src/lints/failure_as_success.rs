use crate::LintContext;

crate::declare_lint! {
    /// ### What it does
    /// TODO
    pub LINT,
    name: "failure_as_success",
    code: "MCP009",
    group: Suspicious,
    level: Warn,
    summary: "a failure path is answered with a success result",
    since: "0.1.0",
    check: Some(check),
}

fn check(_cx: &mut LintContext<'_>) {}
