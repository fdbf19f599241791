pub mod core;
mod hybrid_router;
pub(crate) mod lua_tools;
mod resources;
pub(crate) mod tools;

#[cfg(test)]
mod integration_tests;

pub use core::NeovimMcpServer;
