//! The front ends: each maps its arguments to a [`crate::session::Request`] and prints what the
//! session produced.

pub mod cargo;
