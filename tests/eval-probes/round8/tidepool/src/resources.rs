//! `tide://stations/{id}`: station metadata as a resource.

use std::collections::HashMap;
use std::sync::Arc;

use tower_mcp::protocol::ReadResourceResult;
use tower_mcp::{Error, JsonRpcError, ResourceTemplate, ResourceTemplateBuilder};

use crate::tools::App;
use crate::validate;

pub fn station_template(app: Arc<App>) -> ResourceTemplate {
    ResourceTemplateBuilder::new("tide://stations/{id}")
        .name("Tide station")
        .description("Metadata of one tide station")
        .handler(move |uri: String, vars: HashMap<String, String>| {
            let app = app.clone();
            async move {
                let raw = vars.get("id").cloned().unwrap_or_default();
                let id = validate::station_id(&raw)
                    .map_err(|e| Error::JsonRpc(JsonRpcError::invalid_params(e.to_string())))?;
                let station = app
                    .client
                    .station(&id)
                    .await
                    .map_err(|e| Error::internal(format!("station lookup failed: {e}")))?
                    .ok_or_else(|| Error::JsonRpc(JsonRpcError::resource_not_found(&uri)))?;
                Ok(ReadResourceResult::json(uri, &station))
            }
        })
}
