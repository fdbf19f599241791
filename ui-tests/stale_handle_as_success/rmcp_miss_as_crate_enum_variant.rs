//@ rmcp = "3.11"
//@ dep: serde = { version = "1", features = ["derive"] }
//@ dep: schemars = "1"
// A store method that tells its miss by a variant of its own enum (`let Some(lease) =
// self.leases.get_mut(id) else { return Ok(Renewal::Unknown) }`): the tool's arm for that variant
// answers the lookup's miss, here as a success result (reported). The arm of a variant built
// on a check of the argument's value (`Renewal::Capped` when the TTL is over the limit) is no
// miss.
use std::collections::HashMap;
use std::sync::Mutex;

use rmcp::{
    handler::server::wrapper::Parameters,
    model::{CallToolResult, ContentBlock},
    tool, tool_router, ErrorData as McpError,
};

const MAX_TTL: u64 = 3600;

pub enum Renewal {
    Renewed { expires_at: u64 },
    Capped { expires_at: u64 },
    Unknown,
}

pub struct Lease {
    expires_at: u64,
}

#[derive(Default)]
pub struct Leases {
    leases: HashMap<String, Lease>,
}

impl Leases {
    pub fn renew(&mut self, lease_id: &str, ttl: u64, now: u64) -> Result<Renewal, String> {
        let Some(lease) = self.leases.get_mut(lease_id) else {
            return Ok(Renewal::Unknown);
        };
        if ttl > MAX_TTL {
            lease.expires_at = now + MAX_TTL;
            return Ok(Renewal::Capped { expires_at: lease.expires_at });
        }
        lease.expires_at = now + ttl;
        Ok(Renewal::Renewed { expires_at: lease.expires_at })
    }
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct RenewArgs {
    pub lease_id: String,
    pub ttl: u64,
}

pub struct Gate {
    leases: Mutex<Leases>,
}

#[tool_router]
impl Gate {
    #[tool(description = "Renew a lease")]
    async fn renew_lease(&self, Parameters(a): Parameters<RenewArgs>) -> Result<CallToolResult, McpError> {
        let mut leases = self
            .leases
            .lock()
            .map_err(|_| McpError::internal_error("lease table lock poisoned", None))?;
        let renewal = leases
            .renew(&a.lease_id, a.ttl, 0)
            .map_err(|e| McpError::internal_error(e, None))?;
        match renewal {
            Renewal::Renewed { expires_at } => Ok(CallToolResult::success(vec![ContentBlock::text(format!(
                "lease {} now expires at {expires_at}",
                a.lease_id
            ))])),
            Renewal::Capped { expires_at } => Ok(CallToolResult::success(vec![ContentBlock::text(format!(
                "lease {} renewed up to the {MAX_TTL}s limit: expires at {expires_at}",
                a.lease_id
            ))])),
            Renewal::Unknown => Ok(CallToolResult::success(vec![ContentBlock::text(format!( //~ stale_handle_as_success
                "lease {} not found",
                a.lease_id
            ))])),
        }
    }
}
