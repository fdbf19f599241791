//! Housekeeping tools for the station cache.

use std::sync::Arc;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use tower_mcp::{CallToolResult, Error, Tool, ToolBuilder};

use super::App;
use crate::validate;

#[derive(Debug, Deserialize, JsonSchema)]
struct ClearCache {
    /// Station to evict; every station when absent.
    station: Option<String>,
}

pub fn tools(app: &Arc<App>) -> Vec<Tool> {
    vec![cache_stats(app), clear_cache(app)]
}

fn cache_stats(app: &Arc<App>) -> Tool {
    let app = app.clone();
    ToolBuilder::new("cache_stats")
        .description("Entries, hits and misses of the station metadata cache")
        .read_only()
        .no_params_handler(move || {
            let app = app.clone();
            async move {
                let (entries, hits, misses) = app
                    .client
                    .station_cache()
                    .stats()
                    .map_err(|e| Error::internal(e.to_string()))?;
                let ratio = if hits + misses == 0 {
                    0.0
                } else {
                    hits as f64 / (hits + misses) as f64
                };
                Ok(CallToolResult::json(json!({
                    "entries": entries,
                    "hits": hits,
                    "misses": misses,
                    "hit_ratio": ratio,
                    "ttl_secs": app.cfg.cache_ttl.as_secs(),
                })))
            }
        })
        .build()
}

fn clear_cache(app: &Arc<App>) -> Tool {
    let app = app.clone();
    ToolBuilder::new("clear_cache")
        .description("Evict one station, or all stations, from the metadata cache")
        .idempotent()
        .handler(move |input: ClearCache| {
            let app = app.clone();
            async move {
                let cache = app.client.station_cache();
                let Some(raw) = input.station else {
                    let n = cache.clear()?;
                    return Ok(CallToolResult::text(format!("Evicted {n} stations.")));
                };
                let id = validate::station_id(&raw)?;
                match cache.remove(&id) {
                    Ok(Some(_)) => Ok(CallToolResult::text(format!("Evicted station {id}."))),
                    Ok(None) => Ok(CallToolResult::text(format!(
                        "Station {id} was not cached; nothing to evict."
                    ))),
                    Err(e) => Ok(CallToolResult::text(format!("Failed to evict {id}: {e}"))),
                }
            }
        })
        .build()
}
