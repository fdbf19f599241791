pub mod acl;
pub mod backup;
pub mod config;
pub mod embeddings;
pub mod error;
pub mod http_server;
pub mod migrate;
pub mod search;
pub mod server;
pub mod store;
pub mod sync;

pub use server::MemoryServer;
