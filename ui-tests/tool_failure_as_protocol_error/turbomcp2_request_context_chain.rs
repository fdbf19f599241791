//@ dep: turbomcp = "2.3"
//@ dep: tokio = "1"
// turbomcp 2.x sends a `#[tool]`'s `Err` as a JSON-RPC error. A failure of the request itself is
// not a tool failure, and a protocol error is right for it: `ctx.request.require_tenant()?`
// (turbomcp-server 2.3.7 `TenantContextExt for RequestContext`) fails when the request carries
// no tenant id, whatever the tool was asked; the model cannot fix that. The receiver is a field
// of the injected `Context`, so it is the request context all the same. A check of a value the
// tool passes in is the tool's: `validate_tenant_ownership(&doc.tenant)` refuses a document the
// model named that belongs to another tenant, and stays reported, as does a lookup miss on the
// model's id.
use std::collections::HashMap;

use turbomcp::prelude::*;
use turbomcp_server::TenantContextExt;

#[derive(Clone)]
struct Doc {
    tenant: String,
    text: String,
}

#[derive(Clone)]
struct Docs {
    docs: HashMap<String, Doc>,
}

#[server(name = "docs", version = "1.0.0")]
impl Docs {
    #[tool("How many documents the calling tenant has")]
    async fn count(&self, ctx: Context) -> McpResult<String> {
        let tenant = ctx.request.require_tenant()?;
        let n = self.docs.values().filter(|d| d.tenant == tenant).count();
        Ok(format!("{n} documents"))
    }

    #[tool("Read one document")]
    async fn read(&self, ctx: Context, id: String) -> McpResult<String> {
        let doc = self
            .docs
            .get(&id)
            .ok_or_else(|| McpError::invalid_request(format!("no document {id:?}")))?; //~ tool_failure_as_protocol_error
        ctx.request.validate_tenant_ownership(&doc.tenant)?; //~ tool_failure_as_protocol_error
        Ok(doc.text.clone())
    }
}

fn main() {}
