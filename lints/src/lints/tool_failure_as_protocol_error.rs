use crate::LintContext;

crate::declare_lint! {
    /// ### What it does
    /// TODO
    pub LINT,
    name: "tool_failure_as_protocol_error",
    code: "MCP001",
    group: Correctness,
    level: Deny,
    summary: "a tool's own failure is sent as a JSON-RPC protocol error instead of an isError result",
    since: "0.1.0",
    check: Some(check),
}

fn check(_cx: &mut LintContext<'_>) {}
