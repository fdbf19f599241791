// Re-export public types
pub use impls::CandleConversationTagger;
pub use types::*;

// Submodules
mod impls;
mod types;
