use crate::LintContext;

crate::declare_lint! {
    /// ### What it does
    /// TODO
    pub LINT,
    name: "reserved_error_code",
    code: "MCP005",
    group: Correctness,
    level: Deny,
    summary: "an error code in a reserved range that the target spec does not define",
    since: "0.1.0",
    check: Some(check),
}

fn check(_cx: &mut LintContext<'_>) {}
