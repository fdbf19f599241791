//! MCP (Model Context Protocol) server library — transport-agnostic
//! dispatch for exposing CAR capabilities to MCP-aware clients.
//!
//! Two transports use this crate today:
//!
//! - **stdio** — `car-mcp-server` binary, one client per process.
//!   Suitable for Claude Desktop / Cursor / Claude Code's
//!   `--mcp-config` and any other client that follows the MCP spec's
//!   stdio framing. See [`transport::stdio_loop`].
//! - **HTTP-streamable** — `car-server` daemon endpoint, many
//!   concurrent clients sharing the same `Runtime` / policy chain /
//!   eventlog. Implemented in `car_server_core::mcp` against the same
//!   [`Server::handle`] entry point: `POST /mcp` for one JSON-RPC
//!   request/response, `GET /mcp` for the SSE stream, `GET
//!   /mcp/health` for liveness. Bind address is `--mcp-bind` /
//!   `CAR_MCP_BIND`; pass `disabled` to skip the listener.
//!
//! Both share the same `Server::handle(Request) -> Option<Response>`
//! pure function, so transports stay separable from protocol logic.
//!
//! The *tool set*, however, is per-[`Server`], not per-process. A
//! transport may register tools it alone can serve via
//! [`Server::register_tool`]: the daemon holds a live `Runtime`, so it
//! can carry tools the stdio binary has no way to run and must not
//! advertise. With nothing registered, a server advertises exactly the
//! built-in schemas, unchanged.
//!
//! The daemon uses that seam for the assistant trio
//! (`assistant_start` / `assistant_poll` / `assistant_cancel`,
//! `car_server_core::mcp_assistant`, car#972 §6), which drives the agent
//! behind `car do` through a run handle, and for the daemon-only tool
//! groups in [`daemon_tools`] — eventlog/receipts, workflow, scheduler —
//! each a thin adapter over an existing daemon JSON-RPC method, registered
//! via [`register_daemon_tools`] with a [`DaemonClient`] carrying the
//! caller's session authority. All of them are absent from stdio because
//! the default stdio profile has no `Runtime`, inference engine, or event log.
//! The explicit `car-mcp --collaboration` profile uses [`Server::tools_only`]
//! and an authenticated supervised daemon client for peer coordination only;
//! it does not expose builtin memory resources or arbitrary daemon execution.
//!
//! ## Why a library crate
//!
//! Originally this lived in `car-mcp-server`'s `main.rs` as a
//! self-contained binary. v0.8 + the external-agent work made it
//! clear MCP needs to be a first-class daemon surface so every
//! external client (Claude Code, Codex, Gemini, custom GPTs) gets
//! CAR's tools through the same governance layer. Extracting the
//! dispatch logic into a library lets the daemon embed it without
//! shelling out to a subprocess. See
//! `docs/proposals/external-agent-detection.md`. The daemon endpoint
//! landed in 0542d10f; `docs/websocket-protocol.md` and
//! `docs/cookbook/07-mcp-server.md` document the live surface.

pub mod daemon_tools;
mod schemas;
mod server;
pub mod transport;

pub use daemon_tools::{register_daemon_tools, DaemonClient, DaemonToolOptions, DAEMON_TOOLS};
pub use schemas::{cached_prompt_schemas, cached_tool_schemas};
pub use server::{RegisterError, Request, Response, Server, ToolError, ToolHandler};

/// Where [`Server::with_store`] should point by default: the same note store
/// the assistant behind `car do` reads and writes.
///
/// Sharing one file is the point. A separate MCP-only store would leave
/// `memory_query` from an editor unable to see anything the user remembered
/// through `car do`, which is half of what car#972 §1 reports as broken.
///
/// Relocating it needs no new knob: the path resolves under `CAR_HOME`, so an
/// editor plugin that wants an isolated memory sets that one variable and
/// every other daemon state path moves with it.
pub fn default_store_path() -> std::path::PathBuf {
    car_memgine::note_store::default_path()
}

/// MCP protocol version this server prefers: the newest entry in
/// [`SUPPORTED_VERSIONS`], answered to any client that does not name a
/// supported revision of its own.
///
/// `2025-06-18`, not `2025-03-26`: the intermediate revision makes
/// *receiving* JSON-RPC batches a MUST, which this server does not implement
/// ([`Server::handle`] dispatches exactly one request), while 2025-06-18
/// removes batching from the spec entirely. So 2025-06-18 is the first
/// revision past 2024-11-05 this server can honestly claim (car#972 Track A).
///
/// Of the 2025-06-18 delta, this server implements `outputSchema` on tool
/// definitions and `structuredContent` on `tools/call` results (see
/// `schemas.rs` and `Server::tools_call`). Elicitation is deliberately NOT
/// declared: `elicitation` is a *client* capability — something a client
/// offers so a server may ask the user mid-call — and CAR-as-server never
/// initiates one. `resources/templates/list` stays unimplemented: every
/// resource URI CAR exposes is fully enumerable through `resources/list`,
/// so there is no `{variable}` space a template could describe, and the
/// method predates this bump anyway (it is not part of the revision delta).
///
/// # Why 2025-11-25 is claimable
///
/// Unlike the 2025-03-26 skip above, this revision asks nothing of a server
/// that this one does not already do. Its **one** normative server
/// requirement is on the Streamable HTTP transport — *"servers must respond
/// with HTTP 403 Forbidden for invalid Origin headers"* — and
/// `car_server_core::mcp::check_origin` has answered `403` on a
/// non-loopback `Origin` since car#972 §3, which predates the revision.
///
/// Everything else in the delta is a capability a server declares or
/// declines, and this one declines all of them: OpenID Connect discovery,
/// incremental scope consent, OAuth Client ID Metadata Documents and
/// RFC 9728 alignment are authorization concerns this transport does not
/// enter; icon metadata on tools/resources/prompts is additive and
/// unemitted; `tasks` is explicitly experimental and is simply not in
/// `ServerCapabilities`; and the elicitation and sampling changes
/// (`ElicitResult`/`EnumSchema` enum forms, URL-mode elicitation,
/// primitive defaults, `tools`/`toolChoice` in sampling) all extend
/// *client* capabilities CAR-as-server never invokes — the same reasoning
/// that kept elicitation undeclared at 2025-06-18.
///
/// Two minor items land in this server's favour rather than against it: a
/// stdio server may now use stderr for all logging, not just errors, which
/// is what `car-mcp-server` already does through `car_telemetry`; and JSON
/// Schema 2020-12 becomes the default dialect, which is the dialect
/// `schemas.rs` already writes.
///
/// # The one behavioural change: where input validation errors go
///
/// Minor change #5 of this revision says input validation errors *should*
/// be returned as Tool Execution Errors rather than Protocol Errors, "to
/// enable model self-correction". This server follows it: on `tools/call`,
/// `ToolError::InvalidParams` now comes back as a result carrying
/// `isError: true` instead of a JSON-RPC `-32602`. The full reasoning, and
/// the line the revision draws, is on
/// [`server::ToolError::is_execution_error`].
///
/// The envelope did not move with it. A request that fails the
/// `CallToolRequest` schema itself — no `name`, or an `arguments` that is
/// not an object — is `ToolError::MalformedRequest` and stays a `-32602`,
/// because it names no tool whose schema could have been violated and so
/// gives a model nothing to correct. `ToolError::UnknownTool` stays a
/// protocol error for the same reason, and because the revision's "Error
/// Handling" section still lists it as one.
///
/// This is the one place the revision changes what an *older* client sees:
/// `Server::handle` is stateless and does not record which revision a
/// caller negotiated, so a 2024-11-05 client gets the new channel too. That
/// is sound rather than convenient — `isError` has existed since
/// 2024-11-05, so the shape is legal in every revision this server speaks,
/// and the item is a clarification of intent rather than a new wire
/// feature. A client that checks `isError` is unaffected; one that ignores
/// it was already mishandling every `Internal`.
pub const PROTOCOL_VERSION: &str = "2025-11-25";

/// Every protocol revision this server will answer `initialize` with.
///
/// The bump to 2025-06-18 was the append-plus-move this list was built for:
/// a client still asking for `2024-11-05` keeps getting it back instead of
/// being handed a revision it never asked for and may refuse. That inversion
/// is what car#972 §3 identified as the real blocker to any bump; the
/// negotiation in `Server::handle` is what removes it. Order is oldest
/// first, and [`PROTOCOL_VERSION`] is always the last entry — the fallback
/// for absent, malformed, and unsupported requests alike.
///
/// 2025-11-25 appended the same way, and nothing was dropped: a client that
/// asks for 2025-06-18 still gets 2025-06-18 back. What the third entry
/// buys is the case measured against the Rig ecosystem's MCP stack
/// (`docs/proposals/rig-ecosystem-lessons.md`): `rmcp`'s client offers
/// `2025-11-25` as its `ProtocolVersion::LATEST`, and a list topping out at
/// 2025-06-18 answered it with a revision it never asked for. That worked
/// only because that particular client does not check the version it is
/// handed back — a stricter one is entitled to disconnect. It also closes a
/// harder failure on the HTTP transport, where
/// `car_server_core::mcp::check_protocol_version` answers `400` to any
/// `MCP-Protocol-Version` header outside this list: a client that kept
/// sending its own `2025-11-25` after the handshake was refused outright.
pub const SUPPORTED_VERSIONS: &[&str] = &["2024-11-05", "2025-06-18", PROTOCOL_VERSION];

/// Server identifier reported in `initialize` responses.
pub const SERVER_NAME: &str = "car-mcp";

/// JSON-RPC error codes per the spec.
pub mod error_codes {
    pub const PARSE: i32 = -32700;
    pub const INVALID_REQUEST: i32 = -32600;
    pub const METHOD_NOT_FOUND: i32 = -32601;
    pub const INVALID_PARAMS: i32 = -32602;
    pub const INTERNAL: i32 = -32603;
}
