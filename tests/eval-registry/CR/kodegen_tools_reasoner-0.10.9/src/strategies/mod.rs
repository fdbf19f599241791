pub mod base;
pub mod beam_search;
pub mod factory;
pub mod mcts;
pub mod mcts_002_alpha;
pub mod mcts_002alt_alpha;
