pub mod cli;
pub mod mcp;
pub mod proxy;
pub mod registry;
pub mod server;
