//! Shared semantic daemon runtime modules.

pub mod bootstrap;
pub mod home;
pub mod manifest;
pub mod protocol;
pub mod query;
pub mod server;
pub mod vault_context;
pub mod vault_registry;
pub mod watcher;
