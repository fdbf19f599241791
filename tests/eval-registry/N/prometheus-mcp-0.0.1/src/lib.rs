pub mod mcp;

pub use mcp::repository::set_repository;
