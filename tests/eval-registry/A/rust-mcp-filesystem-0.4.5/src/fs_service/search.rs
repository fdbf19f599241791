mod content;
mod files;
mod tree;

pub use content::FileSearchResult;
