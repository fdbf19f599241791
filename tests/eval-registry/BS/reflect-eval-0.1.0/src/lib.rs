pub mod parsers;
pub mod runner;
pub use runner::{run_evaluator, RunnerConfig};
