//@ rmcp = "3.11"
//@ dep: serde = { version = "1", features = ["derive"] }
//@ dep: schemars = "1"
// `if self.billing.account().is_none()`, where `account()` reads an `Option` field set when the
// server was built and never changed behind `&self`, and `if self.config.token.is_none()`: the
// server was configured without it, its own fault, and -32603 is right. A field behind a lock
// can be filled later, and a lookup of the model's id is the tool's failure: both reported.
use std::collections::HashMap;
use std::sync::RwLock;

use rmcp::{handler::server::wrapper::Parameters, model::*, schemars, tool, tool_router, ErrorData as McpError};

pub struct Billing {
    account: Option<String>,
    pending: RwLock<Option<String>>,
}

impl Billing {
    pub fn account(&self) -> Option<&str> {
        self.account.as_deref()
    }
}

pub struct Config {
    pub token: Option<String>,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct LabelArgs {
    pub shipment: String,
}

pub struct Shipments {
    billing: Billing,
    config: Config,
    labels: HashMap<String, String>,
}

#[tool_router]
impl Shipments {
    #[tool(description = "Buy a shipping label")]
    async fn buy_label(&self, Parameters(args): Parameters<LabelArgs>) -> Result<CallToolResult, McpError> {
        if self.billing.account().is_none() {
            return Err(McpError::internal_error("no billing account configured (BILLING_ACCOUNT)", None));
        }
        if self.config.token.is_none() {
            return Err(McpError::internal_error("no carrier token configured (CARRIER_TOKEN)", None));
        }
        if self.billing.pending.read().unwrap().is_none() {
            return Err(McpError::internal_error("no pending billing run; start one first", None)); //~ tool_failure_as_protocol_error
        }
        if self.labels.get(&args.shipment).is_none() {
            return Err(McpError::internal_error(format!("no shipment {}", args.shipment), None)); //~ tool_failure_as_protocol_error
        }
        Ok(CallToolResult::success(vec![ContentBlock::text("label bought")]))
    }
}
