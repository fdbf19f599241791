//! Server registry for multi-server routing.
//!
//! Maps server names to their corresponding backend clients and routes
//! incoming `POST /exec` requests to the correct backend.

// Stub — implementation added in Phase 1 build.
