// Module declarations
mod backprop;
mod node_ops;
mod path_analysis;
mod simulation;
mod strategy_impl;
mod types;

// Re-export public types
pub use types::MonteCarloTreeSearchStrategy;
