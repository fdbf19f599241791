use crate::LintContext;

crate::declare_lint! {
    /// ### What it does
    /// TODO
    pub LINT,
    name: "stale_handle_as_success",
    code: "MCP008",
    group: Suspicious,
    level: Warn,
    summary: "a lookup miss on a handle or id is answered with a success result",
    since: "0.1.0",
    check: Some(check),
}

fn check(_cx: &mut LintContext<'_>) {}
