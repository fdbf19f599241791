//@ dep: pmcp = "1.20"
//@ dep: async-trait = "0.1"
//@ dep: serde_json = "1"
// An `Option` field of the configuration `main` stored in a `OnceLock`, read through the crate's
// accessor (`let cfg = config::get().ok_or_else(..)?; cfg.export_dir.as_ref()`): set once at
// start-up, so its `None` is the server's own state (export disabled), and -32603 is right there,
// as for `self.config.export_dir`. The same test of an `Option` the model gave is its failure.
use std::path::PathBuf;
use std::sync::OnceLock;

use async_trait::async_trait;
use pmcp::{Error, RequestHandlerExtra, ToolHandler};
use serde_json::{json, Value};

mod config {
    use super::*;

    pub struct Config {
        pub export_dir: Option<PathBuf>,
    }

    pub static CONFIG: OnceLock<Config> = OnceLock::new();

    /// The configuration, once `main` has stored it.
    pub fn get() -> Option<&'static Config> {
        CONFIG.get()
    }
}

pub struct ExportJournal;

#[async_trait]
impl ToolHandler for ExportJournal {
    async fn handle(&self, args: Value, _extra: RequestHandlerExtra) -> pmcp::Result<Value> {
        let cfg = config::get().ok_or_else(|| Error::internal("configuration not loaded"))?;
        let dir = cfg
            .export_dir
            .as_ref()
            .ok_or_else(|| Error::internal("journal export is disabled: LEDGER_EXPORT_DIR is not set"))?;
        let file = args["file"].as_str().map(str::to_string);
        let Some(file) = file.as_ref() else {
            return Err(Error::validation("`file` names the journal file to write, e.g. \"2026-q3.csv\"")); //~ tool_failure_as_protocol_error
        };
        Ok(json!({ "written": dir.join(file) }))
    }
}

fn main() {
    let _ = config::CONFIG.set(config::Config { export_dir: None });
}
