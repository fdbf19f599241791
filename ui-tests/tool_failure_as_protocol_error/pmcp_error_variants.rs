//@ dep: pmcp = "2.23"
//@ dep: async-trait = "0.1"
//@ dep: serde_json = "1"
//@ dep: anyhow = "1"
//@ dep: tokio = "1"
//@ dep: reqwest = "0.12"
// pmcp 2.x, `ToolHandler::handle(&self, args: Value, extra) -> pmcp::Result<Value>`: the server's
// `tools/call` dispatch sends every `Err` as a JSON-RPC error except `Error::ToolRejected`, which
// becomes an isError result. `Error::Protocol` keeps its code; every other variant becomes -32603
// with `err.to_string()` (`impl From<pmcp::Error> for JSONRPCError`). So `Error::validation(..)`,
// `Error::not_found(..)`, `Error::internal(..)`, `Error::protocol_msg(..)` and `?` on anyhow,
// `std::io` or `serde_json` errors (pmcp has `From` impls for all three) are -32603 in a tool.
// `Error::tool_rejected(..)` and `Error::ToolRejected { .. }` are right, as are protocol errors
// from prompt and resource handlers, and serializing the server's own output.
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context;
use async_trait::async_trait;
use pmcp::types::{Content, GetPromptResult, ListResourcesResult, PromptMessage, ReadResourceResult};
use pmcp::{Error, PromptHandler, RequestHandlerExtra, ResourceHandler, Server, ToolHandler};
use serde_json::{json, Value};

#[derive(serde::Serialize)]
pub struct Invoice {
    pub customer: String,
    pub total_cents: u64,
    pub currency: String,
    pub draft: bool,
    pub locked: bool,
}

async fn exchange_rate(client: &reqwest::Client, currency: &str) -> anyhow::Result<f64> {
    let body: Value = client
        .get(format!("https://rates.example.com/latest?base={currency}"))
        .send()
        .await?
        .json()
        .await?;
    body["rates"]["EUR"].as_f64().context("rate service answered without EUR")
}

pub struct ExportInvoice {
    invoices: Arc<HashMap<String, Invoice>>,
    dir: PathBuf,
    client: reqwest::Client,
    limit_cents: u64,
}

#[async_trait]
impl ToolHandler for ExportInvoice {
    async fn handle(&self, args: Value, _extra: RequestHandlerExtra) -> pmcp::Result<Value> {
        let id = args
            .get("invoice_id")
            .and_then(Value::as_str)
            .ok_or_else(|| Error::validation("invoice_id is required (a string like INV-2031)"))?; //~ tool_failure_as_protocol_error
        let invoice = self.invoices.get(id).ok_or_else(|| Error::not_found(format!("no invoice {id}")))?; //~ tool_failure_as_protocol_error
        if invoice.draft {
            return Err(Error::tool_rejected(format!("invoice {id} is still a draft; finalize it first"), Some(json!({ "status": "draft" }))));
        }
        if invoice.locked {
            return Err(Error::protocol_msg(format!("invoice {id} is locked by another export"))); //~ tool_failure_as_protocol_error
        }
        if invoice.total_cents > self.limit_cents {
            return Err(Error::internal(format!("invoice {id} exceeds the export limit of {} cents", self.limit_cents))); //~ tool_failure_as_protocol_error
        }
        let rate = exchange_rate(&self.client, &invoice.currency).await?; //~ tool_failure_as_protocol_error
        // Serializing the server's own output: a genuine server fault, not reported.
        let bytes = serde_json::to_vec_pretty(invoice)?;
        let path = self.dir.join(format!("{id}.json"));
        tokio::fs::write(&path, bytes).await?; //~ tool_failure_as_protocol_error
        Ok(json!({ "path": path.display().to_string(), "total_eur": invoice.total_cents as f64 * rate / 100.0 }))
    }
}

pub struct VoidInvoice {
    invoices: Arc<HashMap<String, Invoice>>,
}

#[async_trait]
impl ToolHandler for VoidInvoice {
    async fn handle(&self, args: Value, _extra: RequestHandlerExtra) -> pmcp::Result<Value> {
        // The argument struct through `?` on `serde_json::Error`: -32603 "Serialization error: ..".
        let request: HashMap<String, String> = serde_json::from_value(args)?; //~ tool_failure_as_protocol_error
        let Some(id) = request.get("invoice_id") else {
            return Err(Error::ToolRejected { message: "invoice_id is required (a string like INV-2031)".to_string(), details: None });
        };
        match self.invoices.get(id) {
            Some(invoice) if invoice.locked => Err(Error::tool_rejected(format!("invoice {id} is locked; unlock it first"), None)),
            Some(_) => Ok(json!({ "voided": id })),
            None => Err(Error::tool_rejected(format!("no invoice {id}; list_invoices shows the valid ids"), None)),
        }
    }
}

/// Not tool context: prompts and resources answer with protocol errors.
pub struct InvoicePrompt {
    invoices: Arc<HashMap<String, Invoice>>,
}

#[async_trait]
impl PromptHandler for InvoicePrompt {
    async fn handle(&self, args: HashMap<String, String>, _extra: RequestHandlerExtra) -> pmcp::Result<GetPromptResult> {
        let id = args.get("invoice_id").ok_or_else(|| Error::validation("invoice_id is required"))?;
        let invoice = self.invoices.get(id).ok_or_else(|| Error::not_found(format!("no invoice {id}")))?;
        Ok(GetPromptResult::new(
            vec![PromptMessage::user(Content::text(format!("Summarize the invoice for {}", invoice.customer)))],
            None,
        ))
    }
}

pub struct InvoiceFiles {
    dir: PathBuf,
}

#[async_trait]
impl ResourceHandler for InvoiceFiles {
    async fn read(&self, uri: &str, _extra: RequestHandlerExtra) -> pmcp::Result<ReadResourceResult> {
        let name = uri.strip_prefix("invoice://").ok_or_else(|| Error::not_found(format!("not an invoice uri: {uri}")))?;
        let text = tokio::fs::read_to_string(self.dir.join(name)).await?;
        Ok(ReadResourceResult::new(vec![Content::text(text)]))
    }

    async fn list(&self, _cursor: Option<String>, _extra: RequestHandlerExtra) -> pmcp::Result<ListResourcesResult> {
        Ok(ListResourcesResult::new(vec![]))
    }
}

pub fn build(invoices: Arc<HashMap<String, Invoice>>, dir: PathBuf) -> pmcp::Result<Server> {
    Server::builder()
        .name("invoices")
        .version("1.0.0")
        .tool(
            "export_invoice",
            ExportInvoice { invoices: invoices.clone(), dir: dir.clone(), client: reqwest::Client::new(), limit_cents: 5_000_000 },
        )
        .tool("void_invoice", VoidInvoice { invoices: invoices.clone() })
        .prompt("summarize_invoice", InvoicePrompt { invoices })
        .resources(InvoiceFiles { dir })
        .build()
}
