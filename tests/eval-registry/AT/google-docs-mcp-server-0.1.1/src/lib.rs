mod api;
mod constants;
mod models;
mod tools;

pub use api::GoogleDocsClient;
pub use models::*;
pub use tools::GoogleDocsMcpServer;
