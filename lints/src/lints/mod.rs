//! One file per lint. The list below is the registry: `registry::all()` reads `ALL`, and the
//! analysis runs `CHECKS` (indexed like `ALL`).

/// Declares a lint: its docs (as `///` lines), name, code, group, default level (the `LINT`
/// static) and check (the `CHECK` const). In scope in every lint file below.
///
/// ```ignore
/// declare_lint! {
///     /// ### What it does
///     /// ...
///     pub LINT,
///     name: "tool_failure_as_protocol_error",
///     code: "MCP001",
///     group: Correctness,
///     level: Deny,
///     summary: "a tool's own failure sent as a JSON-RPC error",
///     since: "0.1.0",
///     check: check,
/// }
/// ```
macro_rules! declare_lint {
    (
        $(#[doc = $doc:expr])*
        pub $ident:ident,
        name: $name:literal,
        code: $code:literal,
        group: $group:ident,
        level: $level:ident,
        summary: $summary:literal,
        since: $since:literal,
        check: $check:expr $(,)?
    ) => {
        pub static $ident: $crate::lint::Lint = $crate::lint::Lint {
            name: $name,
            code: $code,
            group: $crate::lint::Group::$group,
            default_level: $crate::lint::Level::$level,
            summary: $summary,
            doc_lines: &[$($doc),*],
            since: $since,
            file: file!(),
        };
        /// What runs the lint over a model (`None`: its findings are made elsewhere).
        pub const CHECK: Option<fn(&mut $crate::context::LintContext<'_>)> = $check;
    };
}

macro_rules! register {
    ($($name:ident),* $(,)?) => {
        $(pub mod $name;)*
        /// Every lint, in code order.
        pub static ALL: &[&crate::lint::Lint] = &[$(&$name::LINT),*];
        /// Each lint's check, in the order of `ALL`.
        pub static CHECKS: &[Option<fn(&mut crate::context::LintContext<'_>)>] =
            &[$($name::CHECK),*];
    };
}

register! {
    tool_failure_as_protocol_error,
    empty_error_content,
    vague_error_text,
    legacy_error_code,
    reserved_error_code,
    tool_input_as_invalid_params,
    unknown_tool_as_tool_error,
    stale_handle_as_success,
    failure_as_success,
    panic_in_tool,
    unknown_tool_wrong_code,
    parse_error,
    internal_error,
    unused_suppression,
    suppression_without_reason,
}
