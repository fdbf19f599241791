mod code_file_cache;

pub use code_file_cache::CodeFileCache;
