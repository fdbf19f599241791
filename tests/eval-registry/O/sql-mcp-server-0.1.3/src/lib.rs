pub mod cli;
pub mod db;
pub mod mcp;
pub mod tunnel;
