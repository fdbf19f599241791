use crate::codes::{classify, CodeClass, URL_ELICITATION_REQUIRED};
use crate::context::LintContext;

declare_lint! {
    /// ### What it does
    /// Finds error codes in a reserved range that the target protocol version does not define. Under
    /// 2026-07-28 (the default) that is any code in -32020..-32099 other than -32020 HeaderMismatch,
    /// -32021 MissingRequiredClientCapability and -32022 UnsupportedProtocolVersion, including the retired
    /// -32042 (URL elicitation required). For every target, it is also any code in JSON-RPC's own
    /// reserved range -32768..-32100 other than the standard -32700 and -32600..-32603.
    ///
    /// For targets 2025-11-25 and older, -32000..-32099 is implementation-defined and only the JSON-RPC
    /// part applies. Code positions are the same as for `legacy_error_code` (MCP004).
    ///
    /// ### Why is this bad?
    /// A peer on 2026-07-28 reads every code in -32020..-32099 as a spec code: an undefined one is a
    /// protocol violation, and the spec may assign it a different meaning later. Hosts and transports act
    /// on the defined codes (rmcp 3.x answers -32020..-32022 with HTTP 400), so a borrowed code changes
    /// behaviour far from your handler. JSON-RPC's reserved range belongs to the JSON-RPC specification.
    ///
    /// ### Example
    /// ```rust
    /// use rmcp::{ErrorData as McpError, model::ErrorCode};
    ///
    /// fn rate_limited(retry_after_secs: u64) -> McpError {
    ///     McpError::new(
    ///         ErrorCode(-32050),
    ///         format!("rate limit reached; retry after {retry_after_secs} s"),
    ///         None,
    ///     )
    /// }
    /// ```
    ///
    /// ### Use instead
    /// ```rust
    /// use rmcp::{ErrorData as McpError, model::ErrorCode};
    ///
    /// const RATE_LIMITED: ErrorCode = ErrorCode(-31050);
    ///
    /// fn rate_limited(retry_after_secs: u64) -> McpError {
    ///     McpError::new(
    ///         RATE_LIMITED,
    ///         format!("rate limit reached; retry after {retry_after_secs} s"),
    ///         None,
    ///     )
    /// }
    /// ```
    /// Inside a tool, report the failure as an `isError` result instead (see MCP001).
    ///
    /// ### Fix safety
    /// No automatic fix: which defined code (or which isError result) replaces a reserved one depends
    /// on what the error means, which the code alone does not tell.
    ///
    /// ### Known problems
    /// - The lint checks numbers, not meanings: a defined code used for something else (-32021 for a
    ///   missing *server* feature) is not reported.
    /// - Codes computed at run time or taken from other crates are not seen.
    /// - With no target set (config `target-protocol`, `--target-protocol`), a hand-rolled server
    ///   is judged against the newest version its source declares (the `protocolVersion` of its
    ///   `initialize` answer, directly or through a const, a `let` or a const list of versions;
    ///   configuration.md, "Target protocol versions"), and its findings say so in a note: one
    ///   declaring 2025-11-25 or older gets only the JSON-RPC part (with no note: every version
    ///   reserves it). A version computed in a fn the answer calls (`negotiate(&params)`) is not
    ///   read. An SDK server is judged against the target alone.
    ///
    /// ### Spec
    /// `docs/specification/2026-07-28/basic/index.mdx`, "Error Codes" (lines 109–155, table at 131–135):
    /// - "Implementations **MUST NOT** emit any code from this sub-range that is not defined by this
    ///   specification and **MUST** use defined codes only with their specified meanings."
    /// - On the retired -32002 and -32042: "Implementations of this protocol version **MUST NOT** emit
    ///   these codes".
    /// - "New error codes for purposes not defined by this specification **SHOULD** be allocated outside
    ///   the JSON-RPC reserved range (`-32768` to `-32000`)".
    ///
    /// For 2025-11-25, `docs/specification/2025-11-25/client/elicitation.mdx` 424–445 defines -32042:
    /// "The server **MUST NOT** return this error except when URL mode elicitation is required."
    ///
    /// ### SDK notes
    /// - rmcp 3.x: `header_mismatch`, `missing_required_client_capability`,
    ///   `unsupported_protocol_version` and the matching `ErrorCode` consts give the defined codes: not
    ///   reported.
    /// - rmcp 0.17–2.x: `url_elicitation_required(..)` and `ErrorCode::URL_ELICITATION_REQUIRED` are
    ///   -32042, reported under target 2026-07-28 (rmcp does not rewrite it); rmcp 3.x removed both.
    /// - rmcp 0.1–0.12 define only the JSON-RPC codes and `RESOURCE_NOT_FOUND`; anything else is a raw
    ///   `ErrorCode(n)`, which is where this lint usually fires.
    /// - turbomcp: `McpError::url_elicitation_required(..)` is -32042 and stays a JSON-RPC error even from
    ///   a `#[tool]` fn: reported under target 2026-07-28.
    /// - rust-mcp-sdk: `RpcErrorCodes::HEADER_MISMATCH`, `MISSING_REQUIRED_CLIENT_CAPABILITY` and
    ///   `UNSUPPORTED_PROTOCOL_VERSION` are the spec's -32020..-32022: not reported.
    /// - mcp-attr: `ErrorCode::SERVER_ERROR_END` is -32099: reported where an error is built with it. pmcp
    ///   (`ErrorCode::other(n)`), ultrafast-mcp (`JsonRpcError::new(n, ..)`) and hand-rolled servers
    ///   (`"code"` members, error helpers) have no named reserved codes; raw codes are where this lint
    ///   fires.
    pub LINT,
    name: "reserved_error_code",
    code: "MCP005",
    group: Correctness,
    level: Deny,
    summary: "an error code in a reserved range that the target spec does not define",
    since: "0.1.0",
    check: Some(check),
}

fn check(cx: &mut LintContext<'_>) {
    if !cx.model.is_mcp() {
        return;
    }
    for site in &cx.model.codes {
        let target = cx.target(site.file);
        // JSON-RPC's own range is reserved under every version.
        let mut version_note = target.note();
        let (message, note) = match classify(site.value, target.version) {
            CodeClass::ReservedUndefined if site.value == URL_ELICITATION_REQUIRED => (
                "error code -32042 (URL elicitation required) is retired".to_string(),
                format!("{}: implementations MUST NOT emit -32042", target.version),
            ),
            CodeClass::ReservedUndefined => (
                format!(
                    "error code {} is reserved and not defined by the spec",
                    site.value
                ),
                format!(
                    "{}: implementations MUST NOT emit an undefined code from -32020..-32099",
                    target.version
                ),
            ),
            CodeClass::JsonRpcReserved => {
                version_note = None;
                (
                    format!("error code {} is reserved by JSON-RPC 2.0", site.value),
                    "JSON-RPC reserves -32768..-32000 for pre-defined errors".to_string(),
                )
            }
            _ => continue,
        };
        let mut d = cx
            .code_diagnostic(site, message)
            .with_label(format!("`{}`", site.written))
            .with_help("use a code the spec defines with its meaning, or an application code outside -32768..-32000")
            .with_note(note);
        if let Some(note) = version_note {
            d = d.with_note(note);
        }
        cx.report(site.file, d);
    }
}
