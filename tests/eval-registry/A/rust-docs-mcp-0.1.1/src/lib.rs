pub mod analysis;
pub mod cache;
pub mod deps;
pub mod docs;
pub mod rustdoc;
pub mod search;
pub mod service;
pub mod util;

pub use service::RustDocsService;
