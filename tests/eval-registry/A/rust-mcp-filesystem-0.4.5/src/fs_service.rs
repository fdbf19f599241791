mod archive;
mod core;
mod io;
mod search;
pub mod utils;

pub use core::{FileSystemService, FsEntry, Resolved, walk_dir};
pub use io::FileInfo;
pub use search::FileSearchResult;
