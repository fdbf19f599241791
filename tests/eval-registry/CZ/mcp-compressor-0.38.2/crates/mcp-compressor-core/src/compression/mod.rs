pub mod engine;
pub mod levels;

pub use engine::CompressionEngine;
pub use levels::CompressionLevel;
