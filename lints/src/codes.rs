//! Error-code ranges and what each target protocol version says about them
//! (mcp-error-rules.md §1.3 and §1.7).

use crate::options::ProtocolVersion;

pub const PARSE_ERROR: i64 = -32700;
pub const INVALID_REQUEST: i64 = -32600;
pub const METHOD_NOT_FOUND: i64 = -32601;
pub const INVALID_PARAMS: i64 = -32602;
pub const INTERNAL_ERROR: i64 = -32603;
pub const RESOURCE_NOT_FOUND: i64 = -32002;
pub const URL_ELICITATION_REQUIRED: i64 = -32042;

/// -32700 and -32600..-32603.
pub fn is_standard(code: i64) -> bool {
    matches!(
        code,
        PARSE_ERROR | INVALID_REQUEST | METHOD_NOT_FOUND | INVALID_PARAMS | INTERNAL_ERROR
    )
}

/// What a code means under a target protocol version.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CodeClass {
    /// -32700, -32600..-32603.
    Standard,
    /// -32000..-32019 under 2026-07-28: new implementations SHOULD NOT use them.
    Legacy,
    /// -32002 under 2026-07-28: retired, MUST NOT be emitted (use -32602).
    RetiredResourceNotFound,
    /// -32020, -32021, -32022 (2026-07-28) or -32042 (2025-11-25): defined by the spec.
    Defined,
    /// -32020..-32099 not defined by the target spec (includes the retired -32042).
    ReservedUndefined,
    /// -32768..-32100 other than the standard codes: reserved by JSON-RPC 2.0 itself.
    JsonRpcReserved,
    /// Anything else: implementation-specific or application codes, allowed.
    Other,
}

pub fn classify(code: i64, target: ProtocolVersion) -> CodeClass {
    let partitioned = target >= ProtocolVersion::V2026_07_28;
    match code {
        PARSE_ERROR | INVALID_REQUEST | METHOD_NOT_FOUND | INVALID_PARAMS | INTERNAL_ERROR => {
            CodeClass::Standard
        }
        RESOURCE_NOT_FOUND if partitioned => CodeClass::RetiredResourceNotFound,
        -32019..=-32000 if partitioned => CodeClass::Legacy,
        -32022..=-32020 if partitioned => CodeClass::Defined,
        URL_ELICITATION_REQUIRED if target == ProtocolVersion::V2025_11_25 => CodeClass::Defined,
        -32099..=-32020 if partitioned => CodeClass::ReservedUndefined,
        -32768..=-32100 => CodeClass::JsonRpcReserved,
        _ => CodeClass::Other,
    }
}

/// Whether some version defines `code` (-32042 in 2025-11-25, -32020..-32022 in 2026-07-28):
/// whether a finding on it depends on the target.
pub fn defined_in_some_version(code: i64) -> bool {
    ProtocolVersion::ALL
        .into_iter()
        .any(|v| classify(code, v) == CodeClass::Defined)
}

/// The spec's name for a well-known code, for messages.
pub fn name(code: i64) -> Option<&'static str> {
    Some(match code {
        PARSE_ERROR => "Parse error",
        INVALID_REQUEST => "Invalid Request",
        METHOD_NOT_FOUND => "Method not found",
        INVALID_PARAMS => "Invalid params",
        INTERNAL_ERROR => "Internal error",
        RESOURCE_NOT_FOUND => "resource not found (retired)",
        URL_ELICITATION_REQUIRED => "URL elicitation required",
        -32020 => "HeaderMismatch",
        -32021 => "MissingRequiredClientCapability",
        -32022 => "UnsupportedProtocolVersion",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use ProtocolVersion::*;

    #[test]
    fn ranges_follow_the_target_version() {
        assert_eq!(classify(-32001, V2026_07_28), CodeClass::Legacy);
        assert_eq!(classify(-32001, V2025_11_25), CodeClass::Other);
        assert_eq!(
            classify(-32002, V2026_07_28),
            CodeClass::RetiredResourceNotFound
        );
        assert_eq!(classify(-32021, V2026_07_28), CodeClass::Defined);
        assert_eq!(classify(-32042, V2026_07_28), CodeClass::ReservedUndefined);
        assert_eq!(classify(-32042, V2025_11_25), CodeClass::Defined);
        assert_eq!(classify(-32050, V2025_11_25), CodeClass::Other);
        assert_eq!(classify(-32603, V2024_11_05), CodeClass::Standard);
        assert_eq!(classify(-32500, V2024_11_05), CodeClass::JsonRpcReserved);
        assert_eq!(classify(-1, V2026_07_28), CodeClass::Other);
    }
}
