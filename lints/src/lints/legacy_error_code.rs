use crate::LintContext;

crate::declare_lint! {
    /// ### What it does
    /// TODO
    pub LINT,
    name: "legacy_error_code",
    code: "MCP004",
    group: Correctness,
    level: Deny,
    summary: "an error code in the legacy range -32000..-32019",
    since: "0.1.0",
    check: Some(check),
}

fn check(_cx: &mut LintContext<'_>) {}
