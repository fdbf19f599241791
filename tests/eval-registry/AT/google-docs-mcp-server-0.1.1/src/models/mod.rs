mod document;

pub use document::*;
