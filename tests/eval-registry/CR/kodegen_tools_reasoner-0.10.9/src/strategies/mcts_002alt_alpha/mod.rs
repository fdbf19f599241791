// Module declarations
mod types;
mod core;
mod search_core;
mod search_path;
mod strategy_impl;

// Public exports
pub use core::MCTS002AltAlphaStrategy;
