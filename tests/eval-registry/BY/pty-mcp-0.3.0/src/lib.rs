pub mod app;
pub mod buffer;
pub mod config;
pub mod mcp;
pub mod permission;
pub mod pty;
pub mod session;
pub mod ssh;

pub use app::{AppState, SpawnSessionRequest};
pub use config::{Config, SshConfig};
pub use mcp::service::PtyMcpServer;
