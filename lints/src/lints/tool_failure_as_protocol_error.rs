use std::collections::HashMap;

use crate::codes;
use crate::context::LintContext;
use crate::model::site::{Channel, ErrorSite, Origin};
use crate::source::{FileId, Span};

declare_lint! {
    /// ### What it does
    /// Finds tool code that reports the tool's own failure as a JSON-RPC protocol error with -32603 or
    /// any code other than -32602/-32601, instead of a tool result with `isError: true`. A tool's own
    /// failure is I/O on a path the model gave, an upstream API or database error, a bad query the model
    /// wrote, a business rule or precondition, a lookup miss on an id the model gave, or a missing or bad
    /// argument value. Any protocol error counts, whatever its code: -32603, -32600, -32700, a legacy
    /// -32000..-32019 code or an application's own (1001); not the codes the target spec defines for
    /// a tool to send (-32042 URL elicitation required under 2025-11-25, -32021 missing client
    /// capability under 2026-07-28), and not the unknown-tool answer (MCP007, MCP011).
    ///
    /// Tool context is every `#[tool]` fn, a hand-written `ServerHandler::call_tool`, `ToolRoute::new_dyn`
    /// closures, `SyncTool`/`AsyncTool` `invoke`, and the crate's functions these call; resource, prompt,
    /// completion, initialize and list handlers are not. When a helper builds the error
    /// (`fn internal(e) -> McpError`), the finding is at the helper, naming the tools that reach it; if
    /// the helper is also used outside tool context, each tool's call site is reported instead. An
    /// `impl From<AppError> for McpError` is such a helper, called by every `?` that converts an
    /// `AppError`: when only tools' `?` reach it, each arm that builds a protocol error is reported,
    /// naming the tools and the calls that can pass that arm's variant (a method called on a lock's
    /// guard, `guard.open(..)?`, is the guarded type's); when a resource, prompt or other handler's
    /// `?` reaches it too, each `?` in tool code is. A `?` picks the `impl From<X>` by the operand's
    /// error type as name resolution finds it: `fs::read_to_string(..)?` and a crate fn declared
    /// `io::Result<_>` convert through `From<std::io::Error>`, `serde_json::from_str(..)?` through
    /// `From<serde_json::Error>`, never both by their shared last name `Error`. Where no fix
    /// rewrites such a conversion, the help says to answer the variant where the tool meets it.
    ///
    /// ### Why is this bad?
    /// The model sees tool results: an `isError` result reaches it with its text, so it can fix the path,
    /// the query or the arguments and retry. A protocol error goes to the host, which logs it or shows a
    /// generic failure; the model does not see your message, and a recoverable mistake becomes a dead end.
    ///
    /// ### Example
    /// ```rust
    /// use rmcp::{ErrorData as McpError, model::*, tool, tool_router, handler::server::wrapper::Parameters};
    ///
    /// #[tool_router]
    /// impl Files {
    ///     #[tool(description = "Read a UTF-8 text file")]
    ///     async fn read_file(&self, Parameters(args): Parameters<ReadFile>) -> Result<CallToolResult, McpError> {
    ///         let text = std::fs::read_to_string(&args.path)
    ///             .map_err(|e| McpError::internal_error(e.to_string(), None))?;
    ///         Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
    ///     }
    /// }
    /// ```
    ///
    /// ### Use instead
    /// ```rust
    /// let text = match std::fs::read_to_string(&args.path) {
    ///     Ok(text) => text,
    ///     Err(e) => {
    ///         let message = format!("cannot read {}: {e}", args.path);
    ///         return Ok(CallToolResult::error(vec![ContentBlock::text(message)]));
    ///     }
    /// };
    /// ```
    /// Before rmcp 2.0 write `Content::text(..)`. A `#[tool]` fn declared `-> Result<String, String>`
    /// gets the same outcome from `Err(format!(..))`.
    ///
    /// ### Fix safety
    /// `--fix` rewrites an `Err(McpError::..(msg, ..))` that a tool returns into
    /// `Ok(CallToolResult::error(vec![ContentBlock::text(msg)]))` (`Content::text` before rmcp 2.0;
    /// `.into()` in a 3.x `call_tool` that returns `CallToolResponse`), and `value.map_err(|e| ..)?`,
    /// `.ok_or_else(|| ..)?` or `.ok_or(..)?` into a `match` whose error arm returns that result. It
    /// writes the names the module already has for these types and adds a `use` for a missing one.
    /// Changing the channel is the point: the client now gets a successful response whose result
    /// has `isError: true`, so anything that counted JSON-RPC errors (host metrics, retries) sees the
    /// failure as a tool result. The fix is MachineApplicable when the fn declares the SDK's tool
    /// result as its `Ok` type; MaybeIncorrect (applied with `--unsafe-fixes`) when the error
    /// carried `data` (`Some(..)`, which the isError result has no place for and which is dropped),
    /// or when `.map_err` is called on a value whose type the source does not show (the `match`
    /// assumes a `Result`; only a call to a fn of the crate declared to return one makes it evident).
    ///
    /// An error built in a helper that only tools use (`fn internal(e: io::Error) -> McpError`) is
    /// fixed at the helper and at its uses together: the helper returns `CallToolResult` and builds
    /// the isError result, and each use returns it as the tool's `Ok` (`return Err(internal(e))` →
    /// `return Ok(internal(e))`; `.map_err(internal)?` → a `match` whose error arm is `Err(e) =>
    /// return Ok(internal(e))`), so the tools keep their signatures. That is done only when the
    /// helper's body is the one construction, and every mention of its name in the crate is such a
    /// use, in the same file, in a fn whose `Ok` is the tool result. `impl From<StoreError> for
    /// McpError` reached by `?` becomes `impl From<StoreError> for CallToolResult`, each `?` a
    /// `match` returning `Ok(e.into())`: MaybeIncorrect, as a conversion elsewhere whose operand's
    /// type the source does not show may still need the old impl, and then the crate does not
    /// build (with four tool calls or more, more than a finding lists, there is no fix). There is
    /// no fix for an error kept in a
    /// variable, returned from a closure, built by a helper that also returns a `Result` of its own
    /// or maps variants in arms, or in a fn whose `Ok` type is not the tool result: each needs a
    /// decision the source does not show.
    ///
    /// Other SDKs get their own isError result the same way: ultrafast-mcp `Ok(ToolResult { content:
    /// vec![ToolContent::text(msg)], is_error: Some(true) })`, turbomcp 3.x's `McpHandler::call_tool`
    /// `Ok(ToolResult::error(msg))`, mcp-attr's `McpServer::tools_call` `Ok(CallToolResult {
    /// content: vec![TextContent::new(msg).into()], is_error: Some(true), meta: Default::default()
    /// })`, rust-mcp-sdk 0.8 and later `Ok(CallToolResult::from(CallToolError::from_message(msg))
    /// .into())`. pmcp 2.9 and later send one error value as an isError result, so there the constructor is
    /// replaced where it stands (`Error::internal(msg)` → `Error::tool_rejected(msg, None)`) and
    /// `Err(..)`, `map_err` and `ok_or_else` around it stay; in a helper only tools use, too.
    /// A hand-rolled server's `json!` response with an `"error"` member gets the `"result"` member
    /// its own tool results have: `json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32603,
    /// "message": msg}})` → `json!({"jsonrpc": "2.0", "id": id, "result": {"content": [{"type":
    /// "text", "text": msg}], "isError": true}})` (MaybeIncorrect when a `"data"` member is dropped).
    ///
    /// ### Known problems
    /// - No fix where the SDK gives the tool no way to return an isError result: a turbomcp 2.x
    ///   `#[tool]` (every `Err` is a JSON-RPC error; its `Ok`, even a `CallToolResult` built with
    ///   2.x's `turbomcp::tool_error(..)`, is serialised into the text of a result with `is_error:
    ///   Some(false)`: turbomcp-macros 2.3.7 `tool.rs` ~120-165), an mcp-attr `#[tool]` fn (its `Ok`
    ///   is the tool's output, not a `CallToolResult`), pmcp before 2.9 (no `tool_rejected`; read in
    ///   1.20.0 and 2.8.1, whose `Server::handle_call_tool` sends the handler's `Err` through `?` and
    ///   wraps its `Ok` in `CallToolResult::new`, `server/mod.rs` ~1207-1211, as `ServerCore` does,
    ///   `core.rs` ~597-600; only the wasm32 `WasmMcpServer` answers a `WasmTool`'s `Err` with
    ///   `CallToolResult::error`, `wasm_server.rs` ~175-178), rust-mcp-sdk before 0.8 (an `Err` of
    ///   `handle_call_tool_request` is an isError result there too, but the text takes
    ///   `CallToolError::from_message`, which the rust-mcp-schema 0.7 it may build with lacks: 0.7.0
    ///   has only `new(impl Error)` and `unknown_tool`, `2025_06_18/schema_utils.rs` ~1388-1401,
    ///   0.7.5 adds it, ~1507; the help names 0.8, and a crate whose `Cargo.lock` pins
    ///   rust-mcp-schema 0.7.5 or later gets 0.8's fix on 0.7). A hand-rolled server gets a fix only for a whole `json!`
    ///   response, and only when some `json!` of the crate writes a `"result"` with `"content"` (else
    ///   its result shape cannot be told); not for a bare error object another fn wraps, a struct
    ///   literal or an `error_response(..)` helper, nor when the error object holds a comment.
    /// - Genuine server faults the model cannot fix are not reported: a poisoned lock, a closed internal
    ///   channel (also receiving on a channel the tool made, `let (tx, rx) = oneshot::channel();
    ///   .. rx.await`, and sending on a sender of the server's own: a field or parameter declared
    ///   `mpsc::Sender<..>`, one the tool made or a crate fn returned, also under
    ///   `tokio::time::timeout`), a `JoinError` (also of a handle kept in a local or in a `Vec` the tool
    ///   pushes spawned tasks into, awaited later, or of a join whose outcome was kept in a local,
    ///   `let joined = spawn_blocking(..).await; joined.map_err(..)?`; the `Ok(Err(e))` arm of the join is judged by
    ///   what the task's closure or async block does: -32603 for failing to serialise the server's
    ///   own value there is right, for failing to read the file the model named it is not), and awaiting a future type of the crate's own
    ///   whose error is its worker's: `impl Future for AsyncTask<T> { type Output = Result<T,
    ///   RecvError>; }`), the `None` of state the server keeps behind a lock and fills itself
    ///   (`guard.as_ref().ok_or_else(..)` after `self.manager.get_or_launch()`, also the `else` of
    ///   `if let Some(token) = guard.as_ref()`; a lookup there by a key the tool computed,
    ///   `self.notes.lock().await.get(&id)`, misses that key: a tool failure) or sets once at
    ///   start-up (the `None` of an `Option` in the server's configuration read through `&self`
    ///   and fields no lock, cell or atomic holds, `self.config.export_dir.as_ref().ok_or_else(..)`,
    ///   `let Some(t) = &self.config.token else` or `if self.config.token.is_none()`, an `Arc<Option<T>>` field
    ///   (`(*self.telematics).as_ref()`), also through
    ///   an accessor `fn account(&self) -> Option<&str> { self.account.as_deref() }`: no call since
    ///   could fill it; the `None` of a `OnceCell`
    ///   / `OnceLock` field or `static`, also behind an `Arc` or read through a crate accessor,
    ///   `fn get() -> Option<&'static Config> { CONFIG.get() }`), the failure of a crate fn that
    ///   fails only when a lock of its own is poisoned (`self.entries.read()?` converted into its
    ///   own error type, or mapped to text, `.read().map_err(|_| "poisoned".to_string())?`) or when serialising its own value (`serde_json::to_string_pretty(doc)` as
    ///   its tail, or a `?` on another such crate fn), parsing or compiling
    ///   a value the source fixes (`Regex::new(r"..")`, `Url::parse(API_BASE)`, `"50".parse()`), the
    ///   process's own environment and clock (`dirs::home_dir()`,
    ///   `SystemTime::now().duration_since(UNIX_EPOCH)`, also through `.map(|d| d.as_secs())` in a
    ///   helper shared with other handlers, judged at each tool's call), a client built
    ///   from the process's own configuration (`Client::builder().token(std::env::var("TOKEN")?)
    ///   .build()`), cancellation, reading back a value the server has just serialised
    ///   (`serde_json::from_value(v)` with `v = serde_json::to_value(&self.state)?`, or the text of
    ///   a crate fn whose value is `serde_json::to_string_pretty(..)`), serializing
    ///   the server's own output (also rmcp's
    ///   `Content::json(value)`, and an encoder writing into a buffer the tool made,
    ///   `img.write_to(&mut Cursor::new(&mut buf), ImageFormat::Png)`), building an elicitation schema,
    ///   a builder's `.build()` when the server filled it with its own values only (literals,
    ///   constants, closures setting literals: `ElicitationSchema::builder().required_bool_with("confirm",
    ///   |f| f.title("Confirm")).build()`). An arm of an error mapping (`From<AppError> for
    ///   McpError`, `fn code(&self)`) is judged by where its variant is built: not reported when
    ///   every build of it in the crate is on such a fault (`lock().map_err(|_| AppError::Db(..))`,
    ///   `.map_err(AppError::Encode)` of serialising the server's own value), or in code only
    ///   `main` and other handlers call (a client built at start-up). They are recognised heuristically from the failing call and the message
    ///   text. Add markers (method or function names, or words in the message) under `[lints]` with
    ///   `tool_failure_as_protocol_error = { server-fault-markers = ["pool_timeout"] }`.
    /// - Failures of the request rather than of the tool are not reported either, decided by where
    ///   the failing value comes from: a method of the SDK's request context, of a field of it or of
    ///   a value it handed out (turbomcp 2.x `ctx.request.require_tenant()?`, pmcp
    ///   `extra.peer()` then `peer.sample(..)`, a client round trip), what the client declared in
    ///   `initialize` (`peer_info()`'s capabilities, tested inline or in a helper, either way round,
    ///   also `if declared { return Ok(()); }` then the refusal), a crate fn given nothing but the
    ///   context (`answered_city(&extra)`, an MRTR answer of the wrong kind) or a method of the
    ///   server's own state given nothing but it (`self.auth.authenticate(extra.auth_info.as_ref())`,
    ///   the request's credentials; also what such a call's callees build, however deep:
    ///   `self.callers.identify(&context)?` reaching a helper that compares the bearer token with
    ///   the accepted ones); what the request carries and a test of it: rmcp's
    ///   `RequestContext` (its `extensions`, `peer`, `meta`), the client's `Peer<RoleServer>` a
    ///   helper is given (`notify_progress` failing), and the HTTP request's `Parts` in
    ///   them or taken as `Extension(parts): Extension<Parts>` or handed to a helper as
    ///   `Option<&Parts>` (a missing `Authorization` header, read through `Option` adapters
    ///   whose arguments are literals, constants or method paths: `headers.get(AUTHORIZATION)`,
    ///   `.map(str::trim)`),
    ///   values bound from those (`if let Some(claims) = claims_of(&ctx.extensions)`, a local a
    ///   `let` takes from a tuple in each branch when every branch's value is the request's) and their
    ///   comparisons with literals (`claims.role == "admin"`); not what the server's own state
    ///   answers about them (a tenant's plan looked up by the request's tenant id); an SDK method that
    ///   serialises the server's own value (pmcp `MrtrSignal::into_meta_entry`); the server's own
    ///   thread (`std::thread::Builder::spawn`); and, in a hand-rolled server, the request's framing
    ///   (`let Some(id) = req.id.clone() else`, on a request struct that declares `jsonrpc`, `id`
    ///   and `method`). A request-context method that checks a value the tool passes in
    ///   (turbomcp `validate_tenant_ownership(&doc.tenant)`) is still the tool's failure.
    /// - A handler method the SDK never runs is not a tool: pmcp's `ToolHandler::handle` in an impl
    ///   whose `handle_output` override does not call it (the default `handle_output` is its only
    ///   caller); the helpers it calls do not count as used outside tool context either.
    /// - A protocol error sent on purpose (a conformance or test server exercising a client's
    ///   error handling) cannot be told from the source: say so on the line, with the reason,
    ///   `// mcp-lint: allow(tool_failure_as_protocol_error) conformance: the client must show -32603`.
    ///   A suppression without a reason is `suppression_without_reason` (MCP903).
    /// - Helpers are put into tool context through calls resolved by path, import and receiver type
    ///   (also a crate fn handed on by path: `spawn_blocking(read_clipboard)`, `.map(parse)`),
    ///   and so are closures a constructor stores in a Fn-typed field (`Self { handler:
    ///   Box::new(handler) }`) when a tool calls that field (`(self.handler)(args)`);
    ///   a method called on a value whose type the source does not show (an untyped closure
    ///   parameter, a value another crate's fn returns) is not followed, even to the only method of that name. `Err(e)` of a call
    ///   binds `e` to the error type the callee declares. A crate `macro_rules!` called in a body is
    ///   read in its expansion when its arm and substitution are certain; only a `#[tool]` fn's
    ///   call of a macro written in its own file makes the fns the expansion calls tool code (a
    ///   dispatch macro in a request handler does not). Other macros are not expanded, so tools
    ///   or errors they generate are not seen. `?` counts as a protocol error only through the
    ///   `impl From<X> for McpError` of the operand's own error type (when the source tells it), and
    ///   a mapping that matches on the error's variant gives each variant its own arm, also
    ///   through a flag it sets per variant (`let callers_fault = match &err { Error::File(_) =>
    ///   true, _ => false }; if callers_fault { invalid_params } else { internal_error }`); a
    ///   fn whose errors come from `.map_err(file_error)?` with `let file_error = |e|
    ///   Error::File(..)` returns that variant. A crate fn that builds the protocol error from a
    ///   code it is given (`fn mcp_err(code: ErrorCode, msg: ..) -> ErrorData { ErrorData {
    ///   code, message: msg.into(), data: None } }`, or `ErrorData::new(code, msg, None)`) builds,
    ///   at each call, the error of the caller's code. A code picked
    ///   by a `match` into a local and given to the constructor or written in the error's struct
    ///   literal (`ErrorData { code: error_code, .. }`) is one site per code, reported at the
    ///   constructor with the codes the tools can reach it with (its legacy and reserved codes
    ///   are reported at their arms by MCP004 and MCP005); for another crate's
    ///   value (`match e.kind() { NotFound => INVALID_PARAMS, _ => INTERNAL_ERROR }`) each arm's
    ///   code is one the tool sends, and its -32602 is left alone (whether that variant is about
    ///   an argument the source does not tell).
    /// - With no target set (config `target-protocol`, `--target-protocol`), a hand-rolled server
    ///   is judged against the newest version its source declares (the `protocolVersion` of its
    ///   `initialize` answer, directly or through a const, a `let` or a const list of versions;
    ///   configuration.md, "Target protocol versions"), and a finding on a code another version
    ///   defines for a tool to send (-32042, -32021) says so in a note. A version computed in a
    ///   fn the answer calls (`negotiate(&params)`) is not read. An SDK server is judged against
    ///   the target alone.
    ///
    /// ### Spec
    /// - `schema/2026-07-28/schema.ts` 1824–1837, on `CallToolResult.isError` (the same comment exists in
    ///   every version since 2024-11-05): "Any errors that originate from the tool SHOULD be reported
    ///   inside the result object, with `isError` set to true, _not_ as an MCP protocol-level error
    ///   response." It goes on: "However, any errors in _finding_ the tool, an error indicating that the
    ///   server does not support tool calls, or any other exceptional conditions, should be reported as
    ///   an MCP error response."
    /// - `docs/specification/2026-07-28/server/tools.mdx` (Error Handling, line 738; since 2025-11-25,
    ///   SEP-1303): "Clients **SHOULD** provide tool execution errors to language models to enable
    ///   self-correction." and "Clients **MAY** provide protocol errors to language models, though these
    ///   are less likely to result in successful recovery."
    ///
    /// ### SDK notes
    /// - rmcp, every generation: `Err(McpError::..)` from a `#[tool]` fn declared `-> Result<_, McpError>`
    ///   is a JSON-RPC error with that code (`internal_error` is -32603). `McpError` is the user's alias
    ///   for `rmcp::ErrorData` (`rmcp::Error` in 0.1–2.x).
    /// - `Err(String)`, `Err(ContentBlock)`/`Err(Content)`, `Err(Json(..))` (0.2–0.3, >= 1.4) and
    ///   `Err(CallToolResult)` (>= 1.4) in a `#[tool]` fn are already `isError` results: not reported.
    /// - So is the `Err` of a crate type that implements rmcp's `IntoContents` (`struct
    ///   ToolError(ErrorData)` with `impl IntoContents for ToolError`): an `ErrorData` built in a fn
    ///   declared to return that type or `Result<_, it>` (`ErrorData::invalid_params(..).into()`,
    ///   also in its `map_err` / `ok_or_else` closures) is converted into it, so its code never
    ///   reaches the wire: not reported, and its text is the isError text (MCP003 reads it). The
    ///   impl must name rmcp's trait (imported from rmcp, or a path through rmcp); a crate trait of
    ///   the same name does not count.
    /// - rmcp >= 1.0 makes `CallToolResult` `#[non_exhaustive]`: use `CallToolResult::error`. In 3.x a
    ///   hand-written `call_tool` returns `CallToolResponse`: `Ok(CallToolResult::error(..).into())`.
    /// - `SyncTool`/`AsyncTool` tools (rmcp >= 0.17) turn every `Err` into a protocol error and cannot
    ///   return `isError`; move such a tool to `#[tool]` to fix the finding.
    /// - -32602 in tools is MCP006 `tool_input_as_invalid_params`; the unknown-tool branch is MCP007.
    /// - rust-mcp-sdk: `handle_call_tool_request` turns every `Err(CallToolError)` into an `isError`
    ///   result, so nothing there is reported. In the `CallToolRequest` arm of
    ///   `ServerHandlerCore::handle_request` and in `handle_call_tool_request_mrtr` an `Err(RpcError)` is a
    ///   JSON-RPC error (`RpcError::internal_error()` is -32603), and `?` on a `CallToolError` crosses the
    ///   SDK's `From<CallToolError> for RpcError`, -32603; that finding is at the `?`. The fix there is
    ///   `Ok(CallToolResult::from(err).into())`, also with the error kept in a local first (`let err =
    ///   CallToolError::from_message(..);`) when every later use of the local is such a call.
    ///   `CallToolError::new(err)` makes any error value the isError text: an `RpcError` or
    ///   `SdkError` built inside it (`CallToolError::new(RpcError::internal_error())`, `RpcError {
    ///   code: -32001, .. }`) is neither a protocol error nor a code on the wire.
    /// - pmcp 1.x and 2.x: every `Err` but `Error::tool_rejected(..)` (an `isError` result, 2.9+) is sent
    ///   as -32603 whatever code it names (`Server::create_response`, `ServerCore`'s dispatch):
    ///   `Error::validation(..)`, `invalid_params(..)`, `protocol(code, ..)`, `not_found(..)`,
    ///   `internal(..)`, the other variants, and `?` on anyhow, `std::io` or `serde_json` errors. The fix
    ///   is `Err(Error::tool_rejected(message, None))` (2.9 or later; before it a tool cannot send
    ///   `isError`, so the help names 2.9).
    /// - turbomcp 2.x (below 3.0, as read in 2.3.7): every `Err` of a `#[server]` `#[tool]` fn is a
    ///   JSON-RPC error, -32002 for most `McpError` variants and for `?`, -32603 for `internal`, -32005
    ///   for `unauthorized`; `McpError::Server(ServerError::x(..))` with the server error's code
    ///   (`not_found` -32004, `rate_limit` -32009, `configuration` -32015, `timeout` -32603) and
    ///   `McpError::from(ProtocolError::x(..))` with its kind's (`invalid_params` -32602,
    ///   `tool_execution_failed` -32002); a 2.x `#[tool]` cannot return `isError` (the macro wraps its `Ok` in a
    ///   `CallToolResult` with `is_error: Some(false)` and maps every `McpError` to a `ServerError`,
    ///   `turbomcp-macros` 2.3.7 `tool.rs`), so the fix is turbomcp 3. The
    ///   version is the one `Cargo.lock` pins, else the `Cargo.toml` requirement.
    /// - turbomcp 3.x and 4.x: in a `#[server]` `#[tool]` fn every `Err` (any `McpError`, `Err(String)`, `?` on I/O) is
    ///   already an `isError` result: not reported, except `McpError::url_elicitation_required(..)`, which
    ///   stays -32042. So is the error of a crate fn only such tools call (`checked_path(raw)?`). In a hand-written `McpHandler::call_tool` an `Err(McpError::..)` is a JSON-RPC error
    ///   with its kind's code; the fix there is `Ok(ToolResult::error(..))`.
    /// - tower-mcp: every tool's `Err` is an `isError` result (`ToolCatchError`), except in 0.25 a tool
    ///   built with `.mrtr_handler(..)` and no `.layer(..)`/`.guard(..)` on its chain: the router sends
    ///   its `Err` as a JSON-RPC error (an `Error::JsonRpc` with its code, anything else -32603), also
    ///   what `?` makes of a crate error through `From<AppError> for Error`. The help there is
    ///   `Ok(RequestOutcome::Complete(CallToolResult::error(..)))`.
    /// - mcp-attr: every `Err` from a `#[tool]` fn is a JSON-RPC error: `bail!(..)`, `bail_public!(_, ..)`
    ///   and `?` on any error are -32603. The only `isError` form is the literal
    ///   `CallToolResult { content, is_error: Some(true), meta }`. `Json::from(&value)?` serialises
    ///   the server's own value: a server fault, not reported.
    /// - ultrafast-mcp: every `Err` from `handle_tool_call` is a JSON-RPC error, -32603 for all but
    ///   `MCPError::invalid_params`/`not_found` (-32602, MCP006), `MCPError::method_not_found` and `?`
    ///   included. The only `isError` form is the literal `ToolResult { content, is_error: Some(true) }`.
    /// - Hand-rolled JSON-RPC: an error object (`json!({"error": {"code": .., "message": ..}})`, a
    ///   `*Error { code, message }` struct, an `error_response(id, code, ..)` helper or any free fn
    ///   that builds the error object with the code it is given (`err(id, -32603, msg)` where `fn
    ///   err(..) -> Response { Response { error: Some(ErrorObj { code, message }), .. } }`), the error type's
    ///   own constructor such as `RpcError::internal(msg)` returning `Self { code: INTERNAL_ERROR, .. }`)
    ///   built in the `"tools/call"` branch (a `match` arm, an `if method == "tools/call" { .. }`
    ///   block, or the handler registered by name: jsonrpc-core's `io.add_method("tools/call", |p|
    ///   ..)`) or a function it reaches. The crate's own error type whose constructors build such
    ///   objects (`RpcError::new(code, message)`) is the server's protocol error: `?` in a fn failing
    ///   with it converts through the crate's `From<AppError> for RpcError`, whose arms are judged
    ///   by the variants tool code passes in, and a constructor that only picks a code
    ///   (`fn internal(m) -> Self { Self::new(INTERNAL_ERROR, m) }`) is judged where it is called.
    ///   A `?` on a fn already failing with that type passes its error on as it is. The `Err`
    ///   arm of a serve loop that calls the router answers tool failures only when the router's
    ///   `"tools/call"` arm can fail (not when that arm is `Ok(..)` on every path because it
    ///   answers every tool failure as an `isError` result itself). A positive code is an HTTP API's
    ///   unless the object also has a `"jsonrpc"` member. jsonrpc-core's own `Error` (18.0
    ///   `types/error.rs`): `internal_error()` and `Error::new(ErrorCode::InternalError)` -32603,
    ///   `Error { code: ErrorCode::ServerError(n), .. }` n, `invalid_request()` -32600.
    /// - Any SDK: an error type of the crate that carries the wire code in a field (`AppError {
    ///   rpc_code: ErrorCode, .. }`, put on the wire by `ErrorData::new(self.rpc_code, ..)` in a
    ///   method or `From` impl) is judged where a constructor chooses the code
    ///   (`Self::new(ErrorCode::INTERNAL_ERROR, detail)` in `fn upstream(..)`), once, with the tool
    ///   calls that reach it attached. A constructor reached only through a `?` that converts another
    ///   crate's error into it (`From<jira_core::JiraError> for AppError`) is not followed.
    /// - A mapping of a crate fn's error (`.map_err(..)`, a `From` conversion by `?` or
    ///   `.map_err(ErrorData::from)`) is not reported when that fn returns `Ok(..)` on every path
    ///   but serialising its own value (no other `?`, no `Err`, no macro that may return one):
    ///   no tool failure reaches it.
    /// - A `from` / `into` path handed to `map_err` converts into the protocol error only when it
    ///   names that type (`.map_err(McpError::from)`) or is the bare trait conversion
    ///   (`.map_err(Into::into)`) in a fn that returns the protocol error: in a fn returning another
    ///   error type it reaches no `From<..> for McpError`. `.map_err(McpError::from)?` is one
    ///   conversion, at the `map_err`. `.map_err(DocError::from)?` converts into the crate's
    ///   `DocError` first, into the variant whose `#[from]` field takes the receiver's error
    ///   (`Upstream(#[from] UpstreamError)`), then by `?`: only that variant's arm is reached. A helper declared to return the protocol error whose value
    ///   is `McpError::from(e)` (`fn err(e: VaultError) -> McpError`) converts through the `From`
    ///   impls like a `?` would.
    /// - A hand-rolled `"tools/call"` route that refuses a request before it picks a tool (`let
    ///   Some(name) = params.get("name") else { return error(..) }`, `let Some(project) =
    ///   project else`: no name, no project selected) fails on the request or the server's
    ///   state, not on a tool: not reported, inline or through a helper the `else` calls (which
    ///   is no tool dispatcher). A call there given nothing at all (`self.require_initialized()`
    ///   before `.and_then(|()| self.call_tool(params))`) checks the server's own state and picks
    ///   no tool: not reported either; nor is a test there of the server's own state given
    ///   nothing from the request (`if !state.allow_call() { return rpc_error(..) }`, a rate limit
    ///   or a full queue), inline or in a route fn handed the request. What the route gets back
    ///   from the dispatch call is the tool's.
    /// - A helper's protocol error that its tool callers replace (`Err(err) =>
    ///   Err(McpError::internal_error(format!("Search error: {err}"), None))`, the same in a
    ///   `map_err` closure, or `.map_err(AppError::Mcp).map_err(ErrorData::from)` through a `From`
    ///   that is one construction of its own code) is reported at the replacement only; one they pass on (`Err(err) => Err(err)`, or rebuilt with the error's own
    ///   code) at the helper. A dispatch helper that `call_tool` hands the tool name to
    ///   (`self.dispatch(&request.name, args).await` returning `Result<Value, ErrorData>`), and
    ///   the fns it calls, send nothing themselves when `call_tool` answers every `Err` of it
    ///   with an isError result (`Err(error) => Ok(CallToolResult::error(..))`): not reported.
    /// - An error mapping's arm for a variant of the crate's error enum (`#[derive(thiserror::Error)]`)
    ///   that no code builds (no `Error::Variant(..)` outside patterns, no `#[from]` field) is not
    ///   reported: no tool call reaches it. Whether code builds it is read by name.
    pub LINT,
    name: "tool_failure_as_protocol_error",
    code: "MCP001",
    group: Correctness,
    level: Deny,
    summary: "a tool's own failure is sent as a JSON-RPC protocol error instead of an isError result",
    since: "0.1.0",
    check: Some(check),
}

/// Whether `site` is a tool failure sent as a protocol error: its code when it is.
fn reported_code(cx: &LintContext<'_>, site: &ErrorSite) -> Option<i64> {
    let code = site.code?;
    let skipped = site.is_text_argument()
        || site.channel != Channel::Protocol
        || !site.context.is_tool()
        || code == codes::INVALID_PARAMS
        || code == codes::METHOD_NOT_FOUND
        // -32042 (URL elicitation required), -32021 (missing client capability): the
        // target spec defines them for a tool to send.
        || codes::classify(code, cx.target(site.file).version) == codes::CodeClass::Defined
        || site.path.server_fault
        // A client capability the client never declared: a protocol-level check.
        || site.path.client_declaration
        // The `"tools/call"` route failing before it picked a tool: the request's failure.
        || site.path.request_failure;
    (!skipped).then_some(code)
}

/// `JSON-RPC error -32603 (Internal error)`, or for several codes `JSON-RPC error -32700
/// (Parse error), -32001 or -32003` (beyond four, `.. or 9 other codes`). -32002 is named
/// resource-not-found only for an SDK whose constructor of that name builds it (`named_32002`):
/// elsewhere it means what the server or SDK made it (turbomcp 2.x's handler errors).
fn written_codes(codes: &[i64], named_32002: bool) -> String {
    let one = |c: &i64| match codes::name(*c) {
        Some(n) if *c != codes::RESOURCE_NOT_FOUND || named_32002 => format!("{c} ({n})"),
        _ => c.to_string(),
    };
    // A long mapping is named by its first codes.
    const SHOWN: usize = 4;
    let mut text = String::from("JSON-RPC error ");
    for (i, c) in codes.iter().take(SHOWN).enumerate() {
        if i > 0 {
            text.push_str(if i + 1 == codes.len() { " or " } else { ", " });
        }
        text.push_str(&one(c));
    }
    if codes.len() > SHOWN {
        text.push_str(&format!(" or {} other codes", codes.len() - SHOWN));
    }
    text
}

fn check(cx: &mut LintContext<'_>) {
    // A construction whose code is picked per variant (`error(id, e.error_code(), ..)`) is one
    // site per variant at one place: one finding there, naming every code a failure gets.
    let mut codes_at: HashMap<(FileId, Span), Vec<i64>> = HashMap::new();
    for site in &cx.model.sites {
        if let Some(code) = reported_code(cx, site) {
            let codes = codes_at.entry((site.file, site.span)).or_default();
            if !codes.contains(&code) {
                codes.push(code);
            }
        }
    }
    for site in &cx.model.sites {
        let Some(dialect) = cx.model.dialect_of(site.file) else {
            continue;
        };
        let Some(codes) = reported_code(cx, site).and_then(|_| codes_at.remove(&(site.file, site.span))) else {
            continue;
        };
        let tools_report = site.context.tools_subject("reports");
        let mut d = cx
            .site_diagnostic(
                site,
                format!("{tools_report} a tool failure as {}", written_codes(&codes, dialect.named_resource_not_found_fits_peer())),
            )
            .with_label("the model never sees this message: hosts log protocol errors");
        if let Some(note) = site.context.helper_note() {
            d = d.with_note(note);
        }
        // A code some version defines for a tool to send is reported because the target does not.
        if codes.iter().any(|c| codes::defined_in_some_version(*c)) {
            if let Some(note) = cx.target(site.file).note() {
                d = d.with_note(note);
            }
        }
        d.fix = cx.fix_in(site.file, || crate::fix::tool_error_result(cx.model, site));
        let help = crate::fix::tool_error_help(cx.model, site, dialect, d.fix.as_ref(), "so the model reads the failure and can retry");
        d = d.with_help(help);
        if let Origin::HelperCall {
            helper,
            built_at,
            constructor,
        } = &site.origin
        {
            d = d.with_note(format!(
                "`{helper}` builds it with `{constructor}` at line {}, and is also used outside tool context, so the fix belongs at this call",
                built_at.start_line
            ));
        }
        cx.report(site.file, d);
    }
}
