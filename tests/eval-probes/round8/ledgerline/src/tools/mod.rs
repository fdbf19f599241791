//! The ledger's MCP tools, one `ToolHandler` struct each.

mod accounts;
mod reports;
mod transactions;

use std::sync::Arc;

use pmcp::types::ToolInfo;
use pmcp::ServerBuilder;
use serde_json::Value;

use crate::limiter::PostLimiter;
use crate::store::Ledger;

/// State every tool shares.
#[derive(Clone)]
pub struct ToolCtx {
    pub ledger: Arc<Ledger>,
    pub limiter: Arc<PostLimiter>,
}

pub(crate) fn info(name: &str, description: &str, schema: Value) -> Option<ToolInfo> {
    Some(ToolInfo::new(name, Some(description.to_string()), schema))
}

/// Register every tool on the builder.
pub fn register(builder: ServerBuilder, ctx: &ToolCtx) -> ServerBuilder {
    builder
        .tool("open_account", accounts::OpenAccount(ctx.clone()))
        .tool("get_account", accounts::GetAccount(ctx.clone()))
        .tool("list_accounts", accounts::ListAccounts(ctx.clone()))
        .tool("close_account", accounts::CloseAccount(ctx.clone()))
        .tool("account_balance", accounts::AccountBalance(ctx.clone()))
        .tool("post_transaction", transactions::PostTransaction(ctx.clone()))
        .tool("get_transaction", transactions::GetTransaction(ctx.clone()))
        .tool("void_transaction", transactions::VoidTransaction(ctx.clone()))
        .tool("batch_post", transactions::BatchPost(ctx.clone()))
        .tool("trial_balance", reports::TrialBalance(ctx.clone()))
        .tool("export_journal", reports::ExportJournal(ctx.clone()))
        .tool("reconcile_account", reports::Reconcile(ctx.clone()))
        .tool("ledger_snapshot", reports::Snapshot(ctx.clone()))
}
