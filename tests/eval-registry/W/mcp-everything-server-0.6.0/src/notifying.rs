// SPDX-License-Identifier: MIT
// Copyright 2026 Tom F. (https://github.com/tomtom215)

//! Tools that emit notifications mid-execution.
//!
//! `tools-call-with-logging` and `tools-call-with-progress` exist to prove a
//! client can receive `notifications/message` and `notifications/progress`
//! *during* a tool call, so the inter-notification delays the scenarios ask
//! for (~50 ms) are part of the contract, not an implementation detail.

// SEP-2577 forward-deprecates Roots, Sampling and Logging. They remain fully
// functional and REQUIRED on the `2025-11-25` surface this crate implements
// and the official suite exercises, so rmcp 3.x's deprecation attributes fire
// on correct code — here, Logging. Scoped to this module, never the crate:
// a blanket allow would also hide a deprecation that genuinely matters. The
// honest cost is that a *different* future deprecation in this module would
// be silenced too. Retires when the `2025-11-25` surface does.
#![allow(deprecated)]
use std::time::Duration;

use rmcp::model::{
    CallToolResult, ContentBlock, LoggingLevel, LoggingMessageNotificationParam,
    ProgressNotificationParam,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, tool, tool_router};

use crate::server::EverythingServer;

/// Delay between the staged notifications; the scenarios specify "~50ms" so
/// clients demonstrably observe distinct messages.
const STAGE_DELAY: Duration = Duration::from_millis(50);

#[tool_router(router = tool_router_notifying, vis = "pub(crate)")]
impl EverythingServer {
    /// `tools-call-with-logging`: three info-level log notifications spaced
    /// ~50 ms apart, then a confirming text result.
    ///
    /// # Errors
    ///
    /// Never fails: log delivery is best-effort by design — a client that
    /// ignores notifications must still get the tool result.
    #[tool(description = "Sends log notifications during execution for conformance testing")]
    pub async fn test_tool_with_logging(
        &self,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        // Filtering happens at the emission site, against whichever mechanism
        // the served revision defines: a `logging/setLevel` threshold above
        // info silences these at `2025-11-25` (the scenario's "filter
        // subsequent log notifications" requirement), and at `2026-07-28` only
        // a request that asked for info in its `_meta` gets them at all.
        let permitted = self.log_permits(&context, LoggingLevel::Info);
        let log = |message: &'static str| {
            let peer = context.peer.clone();
            async move {
                if permitted {
                    let _ = peer
                        .notify_logging_message(
                            // `#[non_exhaustive]` in rmcp 3.x; `new` + the
                            // `with_logger` builder sets exactly the three
                            // fields the literal did, so the wire shape holds.
                            LoggingMessageNotificationParam::new(
                                LoggingLevel::Info,
                                serde_json::Value::String(message.into()),
                            )
                            .with_logger("test_tool_with_logging"),
                        )
                        .await;
                }
            }
        };
        log("Tool execution started").await;
        tokio::time::sleep(STAGE_DELAY).await;
        log("Tool processing data").await;
        tokio::time::sleep(STAGE_DELAY).await;
        log("Tool execution completed").await;
        Ok(CallToolResult::success(vec![ContentBlock::text(
            "Tool with logging executed successfully.",
        )]))
    }

    /// `tools-call-with-progress`: progress 0 → 50 → 100 (total 100) against
    /// the request's `progressToken`; without a token, just the delays.
    ///
    /// # Errors
    ///
    /// Never fails: progress delivery is best-effort by design.
    #[tool(description = "Reports progress notifications during execution for conformance testing")]
    pub async fn test_tool_with_progress(
        &self,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let token = context.meta.get_progress_token();
        let notify = |progress: u32| {
            let token = token.clone();
            let peer = context.peer.clone();
            async move {
                if let Some(token) = token {
                    let _ = peer
                        .notify_progress(
                            ProgressNotificationParam::new(token, progress.into())
                                .with_total(100_u32.into()),
                        )
                        .await;
                }
            }
        };
        // Unrolled rather than looped: the only conditional this function
        // needs is token presence — a "sleep between stages" branch would be
        // observable solely through wall-clock timing, which deterministic
        // tests must not assert.
        notify(0).await;
        tokio::time::sleep(STAGE_DELAY).await;
        notify(50).await;
        tokio::time::sleep(STAGE_DELAY).await;
        notify(100).await;
        Ok(CallToolResult::success(vec![ContentBlock::text(
            "Tool with progress executed successfully.",
        )]))
    }

    /// `test-list-changed`: emits the three `notifications/*/list_changed`
    /// messages, making the declared `listChanged` capabilities exercisable
    /// on demand (the lists themselves are static between calls; the spec
    /// only requires the notification to be *sendable* and well-formed).
    ///
    /// # Errors
    ///
    /// Never fails: notification delivery is best-effort by design.
    #[tool(
        description = "Emits tools/resources/prompts list_changed notifications for conformance testing"
    )]
    pub async fn test_list_changed(
        &self,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let _ = context.peer.notify_tool_list_changed().await;
        let _ = context.peer.notify_resource_list_changed().await;
        let _ = context.peer.notify_prompt_list_changed().await;
        Ok(CallToolResult::success(vec![ContentBlock::text(
            "list_changed notifications emitted.",
        )]))
    }
}
