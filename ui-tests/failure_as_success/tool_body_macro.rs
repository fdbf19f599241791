//@ rmcp = "3.1"
//@ dep: serde = { version = "1", features = ["derive"] }
//@ dep: serde_json = "1"
//@ dep: anyhow = "1"
// `-> String` tools whose bodies are one call of the crate's own `macro_rules!` (the macro takes
// the store's lock, calls the module fn the tool names and answers its `Err` with a helper's
// JSON): the macro's `Err(e) => unexpected_error(e)` is every such tool's failure told as
// success, reported once where the macro writes it, and the module fns the macro calls are tool
// code. The failure JSON is a crate struct serialised by a helper: `status: Status::Error`
// under `#[serde(rename_all = "snake_case")]` is `"status": "error"` on the wire. A macro whose
// `Err` arm answers with `Status::Success` data, and the module fn's success answers, are no
// failure. A miss on the cell the model named, in a module fn the macro calls, answered with
// that JSON is MCP008.
use rmcp::{handler::server::wrapper::Parameters, schemars, tool, tool_router};
use serde::Serialize;

#[derive(Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Success,
    Error,
}

#[derive(Serialize)]
pub struct ToolResponse {
    pub status: Status,
    pub message: String,
}

pub fn error(description: &str) -> String {
    serde_json::to_string(&ToolResponse { status: Status::Error, message: description.to_string() })
        .expect("a response serialises")
}

pub fn success(message: &str) -> String {
    serde_json::to_string(&ToolResponse { status: Status::Success, message: message.to_string() })
        .expect("a response serialises")
}

fn unexpected_error(e: anyhow::Error) -> String {
    error(&format!("Unexpected error: {e}"))
}

pub struct Store {
    cells: std::collections::HashMap<String, String>,
}

pub mod tools {
    pub fn write_cell(store: &mut super::Store, input: super::CellInput) -> anyhow::Result<String> {
        if input.cell.is_empty() {
            anyhow::bail!("cell reference is empty");
        }
        store.cells.insert(input.cell.clone(), input.value);
        Ok(super::success(&format!("wrote {}", input.cell)))
    }

    pub fn clear_cell(store: &mut super::Store, input: super::CellInput) -> anyhow::Result<String> {
        match store.cells.remove(&input.cell) {
            Some(_) => Ok(super::success("cleared")),
            None => Ok(super::error(&format!("Cell '{}' not found", input.cell))), //~ stale_handle_as_success
        }
    }

    pub fn read_cell(store: &mut super::Store, input: super::CellInput) -> anyhow::Result<String> {
        Ok(store.cells.get(&input.cell).cloned().unwrap_or_default())
    }
}

macro_rules! tool_fn {
    ($store:expr, $module:path, $input:expr) => {{
        let mut store = $store.lock().unwrap();
        match $module(&mut store, $input) {
            Ok(j) => j,
            Err(e) => unexpected_error(e), //~ failure_as_success
        }
    }};
}

macro_rules! quiet_fn {
    ($store:expr, $module:path, $input:expr) => {{
        let mut store = $store.lock().unwrap();
        match $module(&mut store, $input) {
            Ok(j) => j,
            Err(_) => success("nothing to read yet"),
        }
    }};
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct CellInput {
    pub cell: String,
    pub value: String,
}

pub struct Sheets {
    store: std::sync::Mutex<Store>,
}

#[tool_router]
impl Sheets {
    #[tool(description = "Write a cell")]
    async fn write_cell(&self, Parameters(i): Parameters<CellInput>) -> String {
        tool_fn!(self.store, tools::write_cell, i)
    }

    #[tool(description = "Write a cell again")]
    async fn rewrite_cell(&self, Parameters(i): Parameters<CellInput>) -> String {
        tool_fn!(self.store, tools::write_cell, i)
    }

    #[tool(description = "Clear a cell")]
    async fn clear_cell(&self, Parameters(i): Parameters<CellInput>) -> String {
        tool_fn!(self.store, tools::clear_cell, i)
    }

    #[tool(description = "Read a cell")]
    async fn read_cell(&self, Parameters(i): Parameters<CellInput>) -> String {
        quiet_fn!(self.store, tools::read_cell, i)
    }
}
