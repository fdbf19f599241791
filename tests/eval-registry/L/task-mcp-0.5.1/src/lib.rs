pub mod config;
pub mod just;
pub mod mcp;
pub mod template;
