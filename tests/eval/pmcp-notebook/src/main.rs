mod backup;
mod resources;
mod store;
mod tools;

use std::sync::Arc;

use pmcp::{ServerBuilder, ServerCapabilities, StdioTransport};

use crate::resources::{NoteResources, SummarizePrompt};
use crate::store::Store;
use crate::tools::{ExportNotebook, NotebookTools, OpenNotebook, SearchArgs};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let store = Arc::new(Store::default());
    let backup_url = std::env::var("NOTEBOOK_BACKUP_URL").ok();
    let search_store = store.clone();

    let server = ServerBuilder::new()
        .name("notebook")
        .version(env!("CARGO_PKG_VERSION"))
        .capabilities(ServerCapabilities::default())
        .tool("open_notebook", OpenNotebook::new(store.clone()))
        .tool("export_notebook", ExportNotebook::new(store.clone()))
        .tool("word_stats", tools::word_stats())
        .tool_typed("search_notes", move |args: SearchArgs, _extra| {
            let store = search_store.clone();
            Box::pin(async move { tools::search(&store, args) })
        })
        .mcp_server(NotebookTools::new(store.clone(), backup_url))
        .resources(NoteResources::new(store.clone()))
        .prompt("summarize_notebook", SummarizePrompt::new(store))
        .build()?;

    server.run(StdioTransport::new()).await?;
    Ok(())
}
