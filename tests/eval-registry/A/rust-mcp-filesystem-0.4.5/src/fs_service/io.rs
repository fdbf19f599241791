mod edit;
mod read;
mod write;

pub use read::FileInfo;
