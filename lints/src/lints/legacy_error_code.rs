use crate::codes::{classify, CodeClass};
use crate::context::LintContext;

declare_lint! {
    /// ### What it does
    /// Finds error codes in the legacy range -32000..-32019 where the server emits them (and where
    /// a server of pmcp or ultrafast-mcp writes one into an error those SDKs send as -32603: the
    /// code is meant for the wire, see the SDK notes): an integer
    /// literal in `ErrorCode(..)` or in an error's `code` field, a const of type `ErrorCode`, or an untyped
    /// integer const where it is used as a code (at its definition, with its uses attached, when
    /// the uses are an error type's own constructors: `Self::new(error_codes::X, ..)`,
    /// `Self { code: error_codes::X, .. }`). With the default target (2026-07-28) this includes
    /// -32002, the retired resource-not-found code. For targets 2025-11-25 and older the whole range
    /// -32000..-32099 is implementation-defined and this lint reports nothing.
    ///
    /// Not reported: comparisons and patterns that inspect a code received from a peer
    /// (`if err.code == ErrorCode(-32001)`), and rmcp's own named -32002 (see SDK notes).
    ///
    /// ### Why is this bad?
    /// Since 2026-07-28 receivers must not give these codes a meaning, so a host treats them as an
    /// anonymous failure: neither the host nor the model learns anything from the code. Worse, the range
    /// was used inconsistently (HeaderMismatch was -32001 in drafts before it moved to -32020, and some
    /// SDKs use -32000 for an unknown tool or -32002 for a missing prompt), so a peer may misread them.
    ///
    /// ### Example
    /// ```rust
    /// use rmcp::{ErrorData as McpError, model::ErrorCode};
    ///
    /// const QUOTA_EXCEEDED: ErrorCode = ErrorCode(-32005);
    ///
    /// fn quota_error(project: &str) -> McpError {
    ///     McpError::new(QUOTA_EXCEEDED, format!("read quota of {project} is used up until 00:00 UTC"), None)
    /// }
    /// ```
    ///
    /// ### Use instead
    /// ```rust
    /// use rmcp::{ErrorData as McpError, model::ErrorCode};
    ///
    /// // Application codes live outside the JSON-RPC reserved range -32768..-32000.
    /// const QUOTA_EXCEEDED: ErrorCode = ErrorCode(-31005);
    ///
    /// fn quota_error(project: &str) -> McpError {
    ///     McpError::new(QUOTA_EXCEEDED, format!("read quota of {project} is used up until 00:00 UTC"), None)
    /// }
    /// ```
    /// Inside a tool, report the failure as an `isError` result instead (see MCP001). For a missing
    /// resource use -32602 (`McpError::invalid_params`) or rmcp's `resource_not_found`.
    ///
    /// ### Fix safety
    /// No automatic fix: the right replacement depends on what the error means (a tool's own failure
    /// becomes an isError result, a malformed request a standard code such as -32602), which the
    /// code alone does not tell.
    ///
    /// ### Known problems
    /// - Codes are resolved through literals, `ErrorCode::NAME` and consts of this crate, and through
    ///   a crate fn that picks one per variant of the error it matches (`fn rpc_code(&self) -> i32`,
    ///   or the code element of `fn map_error(e: &Error) -> (i32, String)` bound by `let (code,
    ///   message) = map_error(&e)`), or by a `match` or an `if` chain into a local (`let (code,
    ///   message) = if text.contains("rate limit") { (-32002, ..) } else { .. }`), reported at the
    ///   arm; a code computed otherwise at run time or taken from another crate is not seen.
    /// - A literal in the range that is not an MCP error code but sits in a code position (a custom
    ///   JSON-RPC layer, an HTTP bridge) is reported; suppress it with a reason.
    /// - A hand-rolled server's error object is known by its shape: an `"error": {"code", ..}`
    ///   member, a bare `{"code": -32001, "message": ..}` object (a JSON-RPC code beside a
    ///   message; an HTTP API's `{"code": 404}` is not one), or a call of a fn whose tail builds
    ///   one with the code it is given (`fn rpc_err(id, code, msg) -> String { json!({..,
    ///   "error": {"code": code, "message": msg}}).to_string() }`), or of a method that does
    ///   (`req.error(code, msg)` building `Response { error: Some(RpcError { code, .. }), .. }`
    ///   with the request's id), whatever the fn is named.
    /// - A hand-rolled server's error object counts where an MCP handler reaches it: the router
    ///   (its answer to an unknown method or to a request it cannot dispatch), a tool, or a helper
    ///   either calls, or the serve loop that sends a tool's failure the router returned (`match
    ///   handle_request(..) { Err(e) => { let code = ..; json!({"error": {"code": code, ..}})
    ///   } }`); an error helper only `main`'s stdio bridge calls, outside the router and for no
    ///   tool's failure, is not seen (an HTTP API answering with the same shape is not MCP).
    /// - With no target set (config `target-protocol`, `--target-protocol`), a hand-rolled server
    ///   is judged against the newest version its source declares (the `protocolVersion` of its
    ///   `initialize` answer, directly or through a const, a `let` or a const list of versions;
    ///   configuration.md, "Target protocol versions"), and its findings say so in a note: one
    ///   declaring 2025-11-25 or older gets nothing from this lint. A version computed in a fn
    ///   the answer calls (`negotiate(&params)`) is not read. An SDK server is judged against the
    ///   target alone.
    ///
    /// ### Spec
    /// `docs/specification/2026-07-28/basic/index.mdx`, "Error Codes" (lines 109–155; new in 2026-07-28,
    /// PR #2907, changelog minor change 12):
    /// - "New codes **MUST NOT** be allocated in this sub-range, and new implementations **SHOULD NOT** use
    ///   codes from this sub-range at all."
    /// - "Apart from `-32002` (see below), receivers **MUST NOT** assume any specific meaning for these
    ///   codes."
    /// - On the retired -32002 and -32042: "Implementations of this protocol version **MUST NOT** emit
    ///   these codes".
    /// - "New error codes for purposes not defined by this specification **SHOULD** be allocated outside
    ///   the JSON-RPC reserved range (`-32768` to `-32000`)".
    ///
    /// ### SDK notes
    /// - rmcp itself emits no legacy-range codes. `ErrorCode(pub i32)` is a public tuple struct in every
    ///   generation, so any integer compiles.
    /// - `McpError::resource_not_found` and `ErrorCode::RESOURCE_NOT_FOUND` are -32002. rmcp >= 1.8
    ///   rewrites -32002 to -32602 for peers on 2026-07-28 or later (SEP-2164, PR #899) and keeps it for
    ///   older peers; older rmcp cannot negotiate 2026-07-28 at all. Either way each peer gets what its
    ///   version asks for, so these named forms are not reported. A raw `ErrorCode(-32002)` is: it hides
    ///   the meaning, so write the name, or -32602 with the `uri` in `data`.
    /// - rust-mcp-sdk: `SdkErrorCodes` and the `SdkError` constructors are legacy (`CONNECTION_CLOSED`
    ///   -32000, `REQUEST_TIMEOUT` -32001, `RESOURCE_NOT_FOUND` -32002, `BAD_REQUEST` -32015,
    ///   `SESSION_NOT_FOUND` -32016). 2.x speaks 2026-07-28 and sends -32002 unchanged, so its named -32002
    ///   is reported too (not in 0.7, whose peers are older). `RpcErrorCodes` -32020..-32022 are the
    ///   spec's.
    /// - pmcp: `ErrorCode::REQUEST_TIMEOUT` .. `CIRCUIT_BREAKER_OPEN` (-32001..-32006) and
    ///   `ErrorCode::other(n)` given to `Error::protocol(..)` or `Error::Protocol { code, .. }`.
    ///   `Error::timeout(..)`, `Error::RateLimited` and the other variants are sent as -32603: no code.
    /// - turbomcp: the `ErrorKind`s with legacy codes (-32005, -32007..-32018) are reported where they are
    ///   sent as JSON-RPC errors (`McpHandler::call_tool`, resource and prompt handlers); in a `#[tool]` fn,
    ///   and in a crate fn only `#[tool]` fns call, the code only rides in `_meta`. turbomcp 2.x sends a
    ///   `#[tool]`'s `Err` as a JSON-RPC error: `ServerError::not_found(..)` (-32004),
    ///   `rate_limit` (-32009), `configuration` (-32015) and the `ProtocolError` kinds with legacy codes
    ///   are reported where written.
    /// - mcp-attr: `ErrorCode(n)` and `ErrorCode::SERVER_ERROR_START` (-32000).
    /// - ultrafast-mcp: the `error_codes`/`mcp_error_codes` consts given to `JsonRpcError::new(..)`,
    ///   reported where written although the server sends -32603 for them.
    /// - Named -32002 in pmcp, turbomcp and ultrafast-mcp: their peers cannot be on 2026-07-28 (pmcp's
    ///   support is opt-in), so their names for it are not reported: turbomcp's
    ///   `McpError::resource_not_found(..)`, and named consts given to a generic builder
    ///   (`Error::protocol(ErrorCode::UNSUPPORTED_CAPABILITY, ..)`,
    ///   `McpError::new(ErrorKind::ResourceNotFound, ..)`,
    ///   `JsonRpcError::new(error_codes::RESOURCE_NOT_FOUND, ..)`). Hand-rolled servers are judged on
    ///   every -32002.
    pub LINT,
    name: "legacy_error_code",
    code: "MCP004",
    group: Correctness,
    level: Deny,
    summary: "an error code in the legacy range -32000..-32019",
    since: "0.1.0",
    check: Some(check),
}

fn check(cx: &mut LintContext<'_>) {
    for site in &cx.model.codes {
        let Some(dialect) = cx.model.dialect_of(site.file) else {
            continue;
        };
        let target = cx.target(site.file);
        let d = match classify(site.value, target.version) {
            CodeClass::Legacy => cx
                .code_diagnostic(
                    site,
                    format!("error code {} is in the legacy range -32000..-32019", site.value),
                )
                .with_label(format!("`{}`", site.written))
                .with_help(
                    "for a tool's own failure return an isError result; for a request error use a standard code (-32602 invalid params, -32603 internal); application codes belong outside -32768..-32000",
                )
                .with_note(format!("{}: new implementations SHOULD NOT use codes from this sub-range", target.version)),
            CodeClass::RetiredResourceNotFound
                if !(site.named && dialect.named_resource_not_found_fits_peer()) =>
            {
                cx
                .code_diagnostic(site, "error code -32002 (resource not found) is retired")
                .with_label(format!("`{}`", site.written))
                .with_help(if dialect.named_resource_not_found_fits_peer() {
                    "write the SDK's name for it (`resource_not_found(..)`, which rmcp 1.8+ rewrites to -32602 for 2026-07-28 peers), or -32602 with the `uri` in `data`"
                } else {
                    "answer a missing resource with -32602 (Invalid params) and the `uri` in `data`"
                })
                .with_note(format!("{}: implementations MUST NOT emit -32002", target.version))
            }
            _ => continue,
        };
        let d = match target.note() {
            Some(note) => d.with_note(note),
            None => d,
        };
        cx.report(site.file, d);
    }
}
