pub mod client;
pub mod url_parser;
pub mod image_cache;

pub use client::FigmaClient;
pub use url_parser::{FigmaUrlParser, FigmaUrlInfo, FigmaUrlType};
pub use image_cache::{ImageCache, ImageEntry};