use crate::LintContext;

crate::declare_lint! {
    /// ### What it does
    /// TODO
    pub LINT,
    name: "tool_input_as_invalid_params",
    code: "MCP006",
    group: Suspicious,
    level: Warn,
    summary: "-32602 used inside a tool to reject argument values",
    since: "0.1.0",
    check: Some(check),
}

fn check(_cx: &mut LintContext<'_>) {}
