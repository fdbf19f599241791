//! Memory operations

pub mod evolution;
pub mod filter;
pub mod graph;
pub mod query;
pub mod repository;
pub mod retrieval;
pub mod storage;

pub use evolution::*;
pub use filter::*;
pub use graph::*;
pub use query::*;
pub use repository::*;
pub use retrieval::*;
pub use storage::*;
