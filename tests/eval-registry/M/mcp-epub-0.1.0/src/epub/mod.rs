pub mod content;
pub mod content_edit;
pub mod metadata;
pub mod patch;
pub mod resource;
pub mod stylesheet;
pub mod toc;
pub mod types;
pub mod validate;

pub use types::EpubError;
