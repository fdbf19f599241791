pub mod config;
pub mod embeddings;
pub mod errors;
pub mod filters;
pub mod qdrant;
pub mod server;
