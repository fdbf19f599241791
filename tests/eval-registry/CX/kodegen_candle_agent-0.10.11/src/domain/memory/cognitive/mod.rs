pub mod types;

// Re-export the main cognitive types that are imported elsewhere
pub use types::{CognitiveMemory, CognitiveProcessor};
