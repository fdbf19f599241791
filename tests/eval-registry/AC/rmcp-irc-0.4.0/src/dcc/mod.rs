//! In-memory CTCP DCC negotiation and direct data-plane lifecycle.

pub mod chat;
pub mod confine;
pub mod manager;
pub mod negotiation;
pub mod runtime;
pub mod session;
pub mod transfer;
