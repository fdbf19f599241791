// SPDX-License-Identifier: MIT
// Copyright 2026 Tom F. (https://github.com/tomtom215)

//! Session trace tap for the streamable HTTP transport (feature `tap`).
//!
//! Records every admitted MCP session as a validator-ready JSON Lines trace
//! ([`mcp_conformance_core::trace`]), one file per session, so the agreement
//! check (docs/plan/03-conformance-strategy.md §Calibration) can replay the
//! exact sessions the official runner drove and diff verdicts.
//!
//! Design rules:
//!
//! - **Pass-through fidelity.** The tap observes; it never alters the bytes,
//!   status, or headers of the proxied exchange. A recording failure is
//!   reported to stderr and the exchange continues untapped.
//! - **Redaction by construction.** Only the conformance-relevant headers in
//!   [`RECORDED_HEADERS`] are recorded; everything else (including any
//!   credential-bearing header) is never captured in the first place.
//! - **Every admitted exchange, session or not.** The tap sits inside the
//!   security-policy layer, so policy rejections (403s) never reach it. What
//!   does reach it is recorded whether or not it names a session: `2026-07-28`
//!   removes sessions outright, and an exchange with no `Mcp-Session-Id` goes
//!   to the run's `stateless` trace file rather than being dropped.
//! - **Write-behind, in order.** Events flow over a bounded channel to one
//!   writer task that appends each line and flushes before taking the next.
//!   Durability is per *written* record: everything the writer has flushed
//!   survives a kill; records still queued die with the process, and a kill
//!   mid-append can leave one torn final line (consumers treat an
//!   unparseable final line as in-progress, not corruption — pinned by
//!   `tap_survives_sigkill_with_a_parseable_prefix` in tests/cli.rs). The
//!   writer assigns `seq` per file in arrival order, making the schema's
//!   strictly-increasing-seq rule hold by construction even when a session's
//!   POST exchanges and SSE streams record concurrently; `xtask conformance`
//!   waits for tap quiescence before stopping the server, so gate runs read
//!   complete traces.
//! - **Sessions are trusted to be distinct.** Files are keyed by the
//!   server-assigned `Mcp-Session-Id` where there is one; a client that
//!   fabricates another session's ID would interleave into that session's file,
//!   and sessionless exchanges share one file per run because the wire offers
//!   no finer identity once sessions are gone. The tap is diagnostics for runs
//!   this repository drives (the official runner over loopback), not a forensic
//!   recorder against adversarial clients — the security boundary lives in the
//!   policy layer in front of it.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::PoisonError;
use std::sync::atomic::{AtomicU64, Ordering};

use axum::body::Body;
use axum::extract::State;
use axum::http::{Method, Request};
use axum::middleware::Next;
use axum::response::Response;
use mcp_conformance_core::trace::{Direction, EventBody, LifecycleEvent};
use tokio_stream::StreamExt as _;

mod body;
mod headers;
mod sse;

use body::{Buffered, buffer};
use sse::SseSplitter;

/// The recording allowlist: everything absent from it — notably
/// `authorization` and `cookie` — is never written to a trace.
///
/// Defined by [`mcp_conformance_core::trace::RECORDED_HEADERS`], shared with
/// every capture tool so the recorders cannot drift apart; kept here as a
/// constant of its own (not a `pub use`) so this crate's API is unchanged for
/// the tools that read a crate's API from its own items.
pub const RECORDED_HEADERS: [&str; mcp_conformance_core::trace::RECORDED_HEADERS.len()] =
    mcp_conformance_core::trace::RECORDED_HEADERS;

/// Header-name prefixes recorded in addition to [`RECORDED_HEADERS`]; defined by
/// [`mcp_conformance_core::trace::RECORDED_HEADER_PREFIXES`].
pub const RECORDED_HEADER_PREFIXES: [&str;
    mcp_conformance_core::trace::RECORDED_HEADER_PREFIXES.len()] =
    mcp_conformance_core::trace::RECORDED_HEADER_PREFIXES;

/// The session-id header of the streamable HTTP transport (`2025-11-25`
/// basic/transports §session management).
const SESSION_ID_HEADER: &str = "mcp-session-id";

/// The trace identity for exchanges that carry no session id.
///
/// `2026-07-28` removes the session concept outright (SEP-2575) — every request
/// is standalone and carries its own context in `_meta` — so *every* exchange of
/// that revision arrives with no `Mcp-Session-Id`. Until 2026-08-17 the tap
/// dropped those on the floor and returned early, which made the capture path
/// structurally unable to record the revision at all, and did it **silently**:
/// the trace directory simply stayed empty, which is indistinguishable from a
/// server that was never talked to. That is the single reason the `2026-07-28`
/// corpus had to be hand-authored.
///
/// A `2025-11-25` exchange can be sessionless too — a rejected `initialize`, or
/// a request refused before a session existed — and those were being lost for
/// the same reason. They are exactly the exchanges a conformance capture wants.
///
/// The grouping is the server run, because once sessions are gone that is the
/// only identity the wire offers. Concurrent stateless clients therefore
/// interleave in one trace; the recording is still faithful (every event is
/// real and in capture order) and the reader is told so in `corpus/README.md`.
const STATELESS_TRACE: &str = "stateless";

/// Largest request/response body the tap will buffer for recording. The
/// suite's payloads are kilobytes; anything larger is passed through intact —
/// what was buffered, then the rest as it streams — unrecorded, with a stderr
/// note, rather than held in memory.
const MAX_RECORDED_BODY: usize = 4 * 1024 * 1024;

/// Capacity of the event channel to the writer task. Sending applies
/// backpressure to the recorded exchange rather than dropping events: a
/// trace with holes is worse than a slightly slower proxied response.
const CHANNEL_CAPACITY: usize = 1024;

/// One recordable moment, routed to the writer task (which sequences it).
struct Record {
    /// Tap-assigned session file key.
    file: Arc<SessionFile>,
    /// Which party emitted the event.
    direction: Direction,
    /// The event body.
    body: EventBody,
}

/// Identity of one session's trace file.
struct SessionFile {
    /// Final path of the JSON Lines trace.
    path: PathBuf,
}

/// Shared tap state installed into the middleware.
///
/// Concurrency posture, re-decided 2026-06-13 (third audit): no `loom`
/// modeling. The shared state is a `Mutex<HashMap>` and one `AtomicU64`
/// ordinal — no hand-rolled lock-free structure for loom to catch out, and
/// `Relaxed` suffices for the ordinal because only its *uniqueness* is
/// load-bearing (`fetch_add` is atomic under any ordering; file naming takes
/// the session lock anyway). The interleaving evidence is the 16-session
/// real-parallelism stress test plus the SIGKILL durability test; loom
/// would re-prove std's Mutex, not this code.
pub struct Tap {
    dir: PathBuf,
    sender: tokio::sync::mpsc::Sender<Record>,
    sessions: Mutex<HashMap<String, Arc<SessionFile>>>,
    created: AtomicU64,
}

impl std::fmt::Debug for Tap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tap")
            .field("dir", &self.dir)
            .finish_non_exhaustive()
    }
}

impl Tap {
    /// Creates the tap and spawns its writer task. The directory is created
    /// eagerly so misconfiguration fails at startup, not mid-session.
    ///
    /// # Errors
    ///
    /// Returns the I/O error when the trace directory cannot be created.
    pub fn new(dir: PathBuf) -> std::io::Result<Arc<Self>> {
        std::fs::create_dir_all(&dir)?;
        let (sender, receiver) = tokio::sync::mpsc::channel(CHANNEL_CAPACITY);
        tokio::spawn(write_loop(receiver));
        Ok(Arc::new(Self {
            dir,
            sender,
            sessions: Mutex::new(HashMap::new()),
            created: AtomicU64::new(0),
        }))
    }

    /// The trace file for `session_id`, creating its identity on first sight.
    fn session(&self, session_id: &str) -> Arc<SessionFile> {
        let mut sessions = self.sessions.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(file) = sessions.get(session_id) {
            return Arc::clone(file);
        }
        let ordinal = self.created.fetch_add(1, Ordering::Relaxed) + 1;
        // The ordinal keeps directory listings in session-creation order; the
        // id makes the session ↔ trace correspondence self-describing.
        let path = self.dir.join(format!("{ordinal:03}-{session_id}.jsonl"));
        let file = Arc::new(SessionFile { path });
        sessions.insert(session_id.to_owned(), Arc::clone(&file));
        file
    }

    /// Enqueues one event for `session_id`; the writer task sequences it.
    /// On channel pressure this awaits (the exchange slows; the trace stays
    /// whole).
    async fn record(&self, session_id: &str, direction: Direction, body: EventBody) {
        let file = self.session(session_id);
        if self
            .sender
            .send(Record {
                file,
                direction,
                body,
            })
            .await
            .is_err()
        {
            eprintln!("mcp-everything-server: tap writer gone; event dropped");
        }
    }
}

/// Per-file writer state: the open handle and the next sequence number.
mod writer;

use headers::{header_value, recorded_headers};
use writer::write_loop;

/// The middleware: records the request exchange and, for SSE responses,
/// every streamed frame, attributing everything to the exchange's session.
pub async fn tap_layer(
    State(tap): State<Arc<Tap>>,
    request: Request<Body>,
    next: Next,
) -> Response {
    let method = request.method().clone();
    let request_headers = recorded_headers(request.headers());
    let request_session = header_value(request.headers(), SESSION_ID_HEADER);

    // Buffer the request body for recording, then reconstruct the request.
    let (parts, body) = request.into_parts();
    let bytes = match buffer(body).await {
        Buffered::Whole(bytes) => bytes,
        Buffered::Passed(body) => {
            // Larger than the recording cap, or cut off: the service receives
            // every byte the client sent, and the tap records nothing of it.
            eprintln!(
                "mcp-everything-server: tap passed an oversized request body through unrecorded"
            );
            return next.run(Request::from_parts(parts, body)).await;
        }
    };
    let request_payload: Option<serde_json::Value> = serde_json::from_slice(&bytes).ok();
    let response = next
        .run(Request::from_parts(parts, Body::from(bytes.clone())))
        .await;

    // The session this exchange belongs to: the response names it on
    // initialize; every later exchange names it on the request. Exchanges that
    // name none are recorded too, under STATELESS_TRACE.
    let response_session = header_value(response.headers(), SESSION_ID_HEADER);
    let session_id = response_session
        .or(request_session)
        .unwrap_or_else(|| STATELESS_TRACE.to_owned());

    if request_payload.is_none() && !bytes.is_empty() {
        // GET and DELETE bodies are legitimately empty; a non-empty body that
        // is not JSON cannot be recorded as a message. Say so rather than
        // leaving a silent hole a trace reader would misread as "no body" —
        // and say it only past the session gate, so the note never claims a
        // recording that did not happen. tests/cli.rs counts these notes
        // against the real binary's stderr: exactly one for one bad body,
        // none for clean traffic.
        eprintln!(
            "mcp-everything-server: tap recorded an exchange without its request \
             message (body is not JSON)"
        );
    }

    tap.record(
        &session_id,
        Direction::ClientToServer,
        EventBody::Http {
            // Which request form this was. Streamable HTTP binds different
            // obligations to POST, GET, and DELETE, so a recording that drops
            // the method leaves the clauses addressed to one of them unjudgeable
            // — and, before 2026-08-20, made the validator fail a conforming
            // teardown DELETE with the POST clause's Accept requirement.
            method: Some(method.as_str().to_owned()),
            status: None,
            headers: request_headers,
        },
    )
    .await;
    if let Some(payload) = request_payload {
        tap.record(
            &session_id,
            Direction::ClientToServer,
            EventBody::Message { payload },
        )
        .await;
    }

    record_response(&tap, &session_id, method, response).await
}

/// Records the response side of one exchange: the HTTP observation, the
/// transport-close moment on session DELETE, and the body's message(s) —
/// streamed frame-by-frame for SSE, buffered for JSON.
async fn record_response(
    tap: &Arc<Tap>,
    session_id: &str,
    method: Method,
    response: Response,
) -> Response {
    let status = response.status();
    let content_type = header_value(response.headers(), "content-type");
    tap.record(
        session_id,
        Direction::ServerToClient,
        EventBody::Http {
            // A response is not a request: the method belongs to the client
            // event recorded above, and repeating it here would invite a check
            // to judge a response against a request-side clause.
            method: None,
            status: Some(status.as_u16()),
            headers: recorded_headers(response.headers()),
        },
    )
    .await;

    // Session teardown is a transport-close moment.
    if method == Method::DELETE && status.is_success() {
        tap.record(
            session_id,
            Direction::ServerToClient,
            EventBody::Lifecycle {
                event: LifecycleEvent::TransportClose,
            },
        )
        .await;
        return response;
    }

    if content_type
        .as_deref()
        .is_some_and(|v| v.starts_with("text/event-stream"))
    {
        return record_sse(tap, session_id, response);
    }
    if content_type
        .as_deref()
        .is_some_and(|v| v.starts_with("application/json"))
    {
        return record_json(tap, session_id, response).await;
    }
    response
}

/// Re-bodies an SSE response with a recording pass-through: frames are
/// recorded as they flow, bytes are forwarded untouched.
fn record_sse(tap: &Arc<Tap>, session_id: &str, response: Response) -> Response {
    let (parts, body) = response.into_parts();
    let tap = Arc::clone(tap);
    let session = session_id.to_owned();
    let mut splitter = SseSplitter::default();
    let stream = body.into_data_stream().then(move |chunk| {
        let tap = Arc::clone(&tap);
        let session = session.clone();
        let payloads = chunk
            .as_ref()
            .map_or_else(|_| Vec::new(), |bytes| splitter.push(bytes));
        async move {
            for payload in payloads {
                tap.record(
                    &session,
                    Direction::ServerToClient,
                    EventBody::Message { payload },
                )
                .await;
            }
            chunk
        }
    });
    Response::from_parts(parts, Body::from_stream(stream))
}

/// Buffers, records, and re-bodies a JSON response.
async fn record_json(tap: &Arc<Tap>, session_id: &str, response: Response) -> Response {
    let (parts, body) = response.into_parts();
    match buffer(body).await {
        Buffered::Whole(bytes) => {
            if let Ok(payload) = serde_json::from_slice::<serde_json::Value>(&bytes) {
                tap.record(
                    session_id,
                    Direction::ServerToClient,
                    EventBody::Message { payload },
                )
                .await;
            }
            Response::from_parts(parts, Body::from(bytes))
        }
        Buffered::Passed(body) => {
            eprintln!(
                "mcp-everything-server: tap passed an oversized response body through unrecorded"
            );
            Response::from_parts(parts, body)
        }
    }
}

#[cfg(test)]
mod tests;
