mod cache;
mod deno_runner;
#[cfg(feature = "mcp")]
pub mod mcp;
mod model;
mod python_runner;
#[cfg(test)]
mod tests;
mod warm_up;

pub use cache::*;
pub use deno_runner::*;
pub use model::RunCodeHttpResult;
pub use model::{CodeExecutor, CodeScriptExecutionResult, LanguageScript};
pub use python_runner::*;
pub use warm_up::warm_up_all_envs;
