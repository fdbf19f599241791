use crate::LintContext;

crate::declare_lint! {
    /// ### What it does
    /// TODO
    pub LINT,
    name: "unknown_tool_as_tool_error",
    code: "MCP007",
    group: Correctness,
    level: Deny,
    summary: "an unknown tool is answered with a tool result instead of a protocol error",
    since: "0.1.0",
    check: Some(check),
}

fn check(_cx: &mut LintContext<'_>) {}
