//@ dep: rmcp = { version = "0.8.5", features = ["server", "macros"] }
//@ dep: serde = { version = "1", features = ["derive"] }
//@ dep: serde_json = "1"
//@ dep: schemars = "1"
// rmcp 0.8: two server faults where -32603 is right. An `Arc<Option<T>>` filled once at start-up
// and read through `&self` (`(*self.telematics).as_ref()`): no call can change it. Text a crate
// fn returns from `serde_json::to_string_pretty` of the server's own values, parsed back: only
// the server's own types can fail there. Parsing the text the model sent is the tool's failure.
use std::sync::Arc;

use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, Content, ErrorData};
use rmcp::{tool, tool_router};
use serde::{Deserialize, Serialize};

pub struct Telematics {
    endpoint: String,
}

#[derive(Serialize)]
pub struct Vehicle {
    id: String,
}

pub struct Store {
    vehicles: Vec<Vehicle>,
}

impl Store {
    pub fn snapshot_json(&self) -> Result<String, serde_json::Error> {
        serde_json::to_string_pretty(&self.vehicles)
    }
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct ImportArgs {
    payload: String,
}

pub struct Fleet {
    telematics: Arc<Option<Telematics>>,
    store: Store,
}

#[tool_router]
impl Fleet {
    #[tool(description = "Where telematics data comes from")]
    async fn telematics_endpoint(&self) -> Result<CallToolResult, ErrorData> {
        let telematics = (*self.telematics)
            .as_ref()
            .ok_or_else(|| ErrorData::internal_error("telematics endpoint not configured", None))?;
        Ok(CallToolResult::success(vec![Content::text(telematics.endpoint.clone())]))
    }

    #[tool(description = "Count the fleet's vehicles")]
    async fn vehicle_count(&self) -> Result<CallToolResult, ErrorData> {
        let json = self
            .store
            .snapshot_json()
            .map_err(|e| ErrorData::internal_error(format!("cannot serialise the fleet: {e}"), None))?;
        let vehicles: Vec<serde_json::Value> = serde_json::from_str(&json)
            .map_err(|e| ErrorData::internal_error(format!("re-reading our own snapshot failed: {e}"), None))?;
        Ok(CallToolResult::success(vec![Content::text(vehicles.len().to_string())]))
    }

    #[tool(description = "Import vehicles from JSON")]
    async fn import_vehicles(&self, Parameters(args): Parameters<ImportArgs>) -> Result<CallToolResult, ErrorData> {
        let vehicles: Vec<serde_json::Value> = serde_json::from_str(&args.payload)
            .map_err(|e| ErrorData::internal_error(format!("payload is not a JSON list: {e}"), None))?; //~ tool_failure_as_protocol_error
        Ok(CallToolResult::success(vec![Content::text(format!("{} vehicles", vehicles.len()))]))
    }
}

fn main() {}
