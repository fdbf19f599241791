//! Tool definitions. Each module builds its tools with `ToolBuilder`.

mod admin;
mod observations;
mod planning;
mod stations;

use std::sync::Arc;

use tower_mcp::Tool;

use crate::client::TidesClient;
use crate::config::Config;

/// Shared state handed to every tool.
pub struct App {
    pub client: TidesClient,
    pub cfg: &'static Config,
}

pub fn all(app: Arc<App>) -> Vec<Tool> {
    let mut tools = Vec::new();
    tools.extend(stations::tools(&app));
    tools.extend(observations::tools(&app));
    tools.extend(planning::tools(&app));
    tools.extend(admin::tools(&app));
    tools
}

/// Parse the numeric value of a reading; the API sends "" for gaps.
pub(crate) fn reading_value(v: &str) -> Option<f64> {
    v.trim().parse().ok()
}
