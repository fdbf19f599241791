pub mod context;
pub mod embedded_provider;
pub mod hai_tools;
pub mod server;

pub use crate::context::HaiServerContext;
pub use crate::embedded_provider::LoadedSharedAgent;
pub use crate::server::HaiMcpServer;
