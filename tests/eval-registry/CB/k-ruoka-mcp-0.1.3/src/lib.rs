pub mod browser;
pub mod login;
pub mod login_flow;
pub mod mcp;
pub mod types;
