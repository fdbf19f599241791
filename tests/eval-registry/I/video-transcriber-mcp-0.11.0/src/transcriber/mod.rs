pub mod audio;
pub mod downloader;
pub mod engine;
pub mod types;
pub mod whisper;

pub use engine::TranscriberEngine;
pub use types::{TranscriptionOptions, WhisperModel};
