pub mod access_control;
pub mod cli;
pub mod mcp;
pub mod orchestrator;
pub mod tools;
pub mod traits;
