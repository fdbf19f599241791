pub mod resources;
pub mod service;
pub mod tasks;
pub mod tools;

// SSH MCP surface is introduced incrementally in SSH1+.
