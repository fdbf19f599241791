//@ dep: turbomcp = "1.1"
//@ dep: tokio = "1"
// turbomcp 1.x and 2.x send a `#[tool]`'s `Err` as a JSON-RPC error (below 3.0), `?` included.
// A `?` on the injected `Context` is not a tool failure: in 1.1.2 (lib.rs) `info`, `warn` and
// `error` log through `tracing` and return `Ok(())`, `set` and `get` (de)serialise into the
// request's own store, `report_progress` updates the server's progress manager, `resolve` looks
// up a service the server registered. Their failures are the server's own, and a protocol
// error is right for them. A failure of the tool's own work in the same fn is still reported.
use std::path::PathBuf;

use turbomcp::prelude::*;

#[derive(Clone)]
struct Notes {
    dir: PathBuf,
}

#[server]
impl Notes {
    #[tool("Update the theme")]
    async fn update_theme(&self, ctx: Context, theme: String) -> McpResult<String> {
        ctx.info(&format!("Updating theme to: {theme}")).await?;
        if !["light", "dark", "auto"].contains(&theme.as_str()) {
            ctx.error("Invalid theme provided").await?;
            return Err(mcp_error!("theme {theme:?} must be one of: light, dark, auto").into()); //~ tool_failure_as_protocol_error
        }
        ctx.set("new_theme", &theme).await?;
        let previous: Option<String> = ctx.get("previous_theme").await?;
        ctx.report_progress(1.0, Some(1.0)).await?;
        Ok(format!("theme {theme} (was {previous:?})"))
    }

    #[tool("Read one note")]
    async fn read_note(&self, ctx: &Context, name: String) -> McpResult<String> {
        ctx.info("reading a note").await?;
        let text = tokio::fs::read_to_string(self.dir.join(&name)).await?; //~ tool_failure_as_protocol_error
        Ok(text)
    }

    // Not the SDK's context: a crate type of the same name whose `set` writes what the tool
    // was asked to a file, so its failure is the tool's.
    #[tool("Save a note")]
    async fn save(&self, store: local::Context, name: String, text: String) -> McpResult<String> {
        store.set(&name, &text).await?; //~ tool_failure_as_protocol_error
        Ok(format!("saved {name}"))
    }
}

mod local {
    pub struct Context {
        pub dir: std::path::PathBuf,
    }

    impl Context {
        pub async fn set(&self, name: &str, text: &str) -> std::io::Result<()> {
            tokio::fs::write(self.dir.join(name), text).await
        }
    }
}
