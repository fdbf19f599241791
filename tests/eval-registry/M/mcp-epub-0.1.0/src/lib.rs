pub mod cache;
pub mod epub;
pub mod tools;

pub use cache::EpubCache;
pub use epub::types::*;
pub use epub::EpubError;
