//@ dep: pmcp = "2.23"
//@ dep: serde = "1"
//@ dep: serde_json = "1"
//@ dep: schemars = "1"
// pmcp tool closures that capture the state of the fn they are written in (`move |args, extra|
// { let state = state.clone(); Box::pin(async move { .. }) }`, also cast to `Pin<Box<dyn
// Future>>`): the captured `state` has the type of that fn's parameter, so `state.invoices.put(..)?`
// is `InvoiceStore::put`. It fails only on a poisoned lock (a server fault: -32603 is right, as
// in a `ToolHandler`); `find`'s `UnknownInvoice` is the tool's failure, reported at its arm of
// the `From` impl, with the tool's call attached. The closure's `Ok` is the tool's output.
use std::collections::HashMap;
use std::sync::{Arc, RwLock};

use pmcp::{Error, RequestHandlerExtra, SimpleTool, ToolHandler, TypedTool};
use serde::Deserialize;
use serde_json::{json, Value};

#[derive(Debug)]
pub enum InvoiceError {
    Poisoned,
    UnknownInvoice(String),
}

impl From<InvoiceError> for Error {
    fn from(e: InvoiceError) -> Self {
        match e {
            InvoiceError::Poisoned => Error::internal("invoice store lock poisoned"),
            InvoiceError::UnknownInvoice(id) => Error::internal(format!("no invoice {id}")), //~ tool_failure_as_protocol_error
        }
    }
}

pub struct InvoiceStore {
    invoices: RwLock<HashMap<String, u64>>,
}

impl InvoiceStore {
    pub fn put(&self, id: String, cents: u64) -> Result<(), InvoiceError> {
        let mut map = self.invoices.write().map_err(|_| InvoiceError::Poisoned)?;
        map.insert(id, cents);
        Ok(())
    }

    pub fn total(&self, id: &str) -> Result<u64, InvoiceError> {
        let map = self.invoices.read().map_err(|_| InvoiceError::Poisoned)?;
        map.get(id).copied().ok_or_else(|| InvoiceError::UnknownInvoice(id.to_string()))
    }
}

pub struct AppState {
    pub invoices: Arc<InvoiceStore>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct DraftArgs {
    pub invoice_id: String,
    pub cents: u64,
}

pub fn create_draft(state: Arc<AppState>) -> impl ToolHandler {
    TypedTool::new("create_draft", move |args: DraftArgs, _extra| {
        let state = state.clone();
        Box::pin(async move {
            state.invoices.put(args.invoice_id.clone(), args.cents)?;
            Ok(json!({ "invoice_id": args.invoice_id }))
        })
    })
}

pub fn invoice_total(invoices: Arc<InvoiceStore>) -> impl ToolHandler {
    SimpleTool::new("invoice_total", move |args: Value, _extra: RequestHandlerExtra| {
        let invoices = invoices.clone();
        Box::pin(async move {
            let id = args.get("invoice_id").and_then(Value::as_str).unwrap_or_default().to_string();
            let cents = invoices.total(&id)?;
            if cents == 0 {
                return Ok(json!({ "status": "error", "message": format!("invoice {id} has no lines yet; add one first") })); //~ failure_as_success
            }
            Ok(json!({ "invoice_id": id, "cents": cents }))
        }) as std::pin::Pin<Box<dyn std::future::Future<Output = pmcp::Result<Value>> + Send>>
    })
}
