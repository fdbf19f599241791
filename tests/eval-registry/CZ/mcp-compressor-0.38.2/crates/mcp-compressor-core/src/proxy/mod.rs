pub mod auth;
pub mod registry;
pub mod router;
pub mod server;

pub use server::{dispatch_exec, BeforeExecHook, RunningToolProxy, ToolProxyServer};
