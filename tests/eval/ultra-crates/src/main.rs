mod registry;
mod tools;

use std::sync::Arc;

use ultrafast_mcp::{
    ResourcesCapability, ServerCapabilities, ServerInfo, ToolsCapability, UltraFastServer,
};

use crate::registry::Registry;
use crate::tools::{CrateTools, ReadmeResources};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let registry = Arc::new(Registry::new("https://crates.io/api/v1")?);
    let server_info = ServerInfo {
        name: "crates-lookup".to_string(),
        version: env!("CARGO_PKG_VERSION").to_string(),
        description: Some("Search crates.io and read crate metadata".to_string()),
        authors: None,
        homepage: None,
        license: None,
        repository: None,
    };
    let capabilities = ServerCapabilities {
        tools: Some(ToolsCapability { list_changed: Some(false) }),
        resources: Some(ResourcesCapability {
            subscribe: Some(false),
            list_changed: Some(false),
        }),
        ..Default::default()
    };
    UltraFastServer::new(server_info, capabilities)
        .with_tool_handler(Arc::new(CrateTools::new(registry.clone())))
        .with_resource_handler(Arc::new(ReadmeResources::new(registry)))
        .run_stdio()
        .await?;
    Ok(())
}
