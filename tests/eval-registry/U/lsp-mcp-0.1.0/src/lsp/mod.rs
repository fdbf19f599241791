pub mod client;
pub mod config;
pub mod manager;
pub mod transport;

pub use client::LspClient;
pub use config::{LanguageServerConfig, LanguageServerRegistry};
pub use manager::LanguageServerManager;
