pub mod backend;
pub mod compressed;
pub(crate) mod connect;
pub(crate) mod dynamic_http_client;
pub(crate) mod output_shrinking;
pub mod registration;
mod response_cache;
pub mod tool_cache;

pub use backend::{BackendAuthMode, BackendServerConfig, BackendTransport};
pub use compressed::{
    BackendConfigSource, CompressedServer, CompressedServerConfig, JustBashCommandSpec,
    JustBashProviderSpec, ProxyTransformMode,
};
pub use tool_cache::ToolCache;
