//! HTTP router for the generic tool proxy.
//!
//! Routes:
//! - `GET  /health` — liveness check, no auth required
//! - `POST /exec`   — tool invocation, requires `Authorization: Bearer <token>`

// Stub — implementation added in Phase 1 build.
