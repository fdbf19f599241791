pub mod sqlite;
pub use sqlite::SqliteStorage;

#[cfg(feature = "ctxgraph")]
pub mod ctxgraph;
#[cfg(feature = "ctxgraph")]
pub use self::ctxgraph::CtxgraphStorage;
