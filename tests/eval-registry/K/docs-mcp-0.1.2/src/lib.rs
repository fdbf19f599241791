pub mod cache;
pub mod cratesio;
pub mod docsrs;
pub mod error;
pub mod server;
pub mod sparse_index;
pub mod tools;
