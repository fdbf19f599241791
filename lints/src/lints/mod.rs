//! One file per lint. The list below is the registry: `registry::all()` reads `ALL`.

macro_rules! register {
    ($($name:ident),* $(,)?) => {
        $(pub mod $name;)*
        /// Every lint, in code order.
        pub static ALL: &[&crate::registry::Lint] = &[$(&$name::LINT),*];
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
