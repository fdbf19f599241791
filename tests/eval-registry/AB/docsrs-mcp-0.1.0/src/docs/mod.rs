pub mod cache;
pub mod fetcher;
pub mod index;
pub mod parser;
pub mod render;
