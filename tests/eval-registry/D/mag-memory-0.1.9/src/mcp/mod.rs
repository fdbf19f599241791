use std::fmt::Write as _;

use anyhow::Result;
use rmcp::{
    ErrorData as McpError, RoleServer, ServerHandler, ServiceExt,
    handler::server::{tool::ToolCallContext, tool::ToolRouter, wrapper::Parameters},
    model::{
        CallToolRequestParams, CallToolResult, ListToolsResult, PaginatedRequestParams,
        ServerCapabilities, ServerInfo, Tool,
    },
    service::RequestContext,
    tool, tool_router,
    transport::stdio,
};
use serde::Serialize;
use serde_json::json;
use uuid::Uuid;

use crate::memory_core::storage::SqliteStorage;
use crate::memory_core::{MemoryInput, is_valid_event_type};

// ── Submodule declarations ──

mod request_types;
mod tools;
pub(crate) mod validation;

use request_types::*;
use validation::require_finite;

// ──────────────────────── Tool mode ────────────────────────

/// Controls which tools are advertised to MCP clients.
///
/// - `Full` (default): all 19 tools — 15 legacy + 4 unified facades.
/// - `Minimal`: only the 4 unified facades (memory, memory_manage,
///   memory_session, memory_admin) — reduces tool-list noise for clients
///   that support action-based routing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum McpToolMode {
    #[default]
    Full,
    Minimal,
}

/// Tools advertised in `McpToolMode::Minimal`.
///
/// The four unified facade tools replace the 15 legacy tools via `action`
/// fields and are sufficient for all memory operations:
/// - `memory`         — store / store_batch / retrieve / delete
/// - `memory_manage`  — update / feedback / relations / lifecycle
/// - `memory_session` — info / checkpoint / remind / lessons / profile
/// - `memory_admin`   — health / list / export / import
const MINIMAL_TOOL_NAMES: &[&str] = &["memory", "memory_manage", "memory_session", "memory_admin"];

// ──────���───────────────── MCP Instructions ────────────────────────

/// Instructions returned in the MCP `initialize` handshake.
///
/// These guide AI clients that connect via MCP-only (no CLI/hooks).
/// The 9-prefix system indicates priority:
///   99999 = critical session behaviour
///   9999  = important per-interaction behaviour
///   999   = recommended practices
const MCP_INSTRUCTIONS: &str = "\
MAG — persistent memory for AI agents. Stores, searches, and recalls context across sessions.\n\
\n\
## 99999 — SESSION START (do this FIRST, every session)\n\
Call memory_session(action=\"info\", info_mode=\"welcome\") BEFORE your first substantive response.\n\
This returns recalled context, active project, and session state.\n\
Do NOT skip this. Without it you are operating without memory.\n\
\n\
## 99999 — STORE DECISIONS AND LESSONS\n\
After completing non-trivial work, call memory_store to persist:\n\
- Architectural decisions with rationale\n\
- Bug root causes and fixes\n\
- User preferences and corrections\n\
- Workflow patterns that worked\n\
You are the ONLY mechanism that stores memories in MCP-only mode. If you don't store, nothing is remembered.\n\
\n\
## 9999 — SEARCH BEFORE DECIDING\n\
Before making architectural choices or debugging recurring issues,\n\
call memory_search to check for prior context. Past-you may have solved this already.\n\
\n\
## 9999 — DO NOT ANNOUNCE MEMORY OPERATIONS\n\
Never say \"let me check my memory\" or \"I'll store that\". Just do it silently.\n\
Weave recalled context naturally into your responses as if you simply know it.\n\
\n\
## 999 — TOOL REFERENCE\n\
Call memory_session(action=\"info\", info_mode=\"protocol\") for the full tool inventory.\n\
\n\
## 999 — DIAGNOSTICS\n\
If tool calls fail, ask the user to run: mag doctor\n\
\n\
## 999 — UPGRADE AVAILABLE\n\
MAG works best with the CLI + hooks plugin, which provides automatic memory\n\
at session start/end, after compaction, and on every prompt — no manual tool calls needed.\n\
If this is a coding environment (Claude Code, Cursor, etc.), mention this once per session:\n\
  \"Tip: install the MAG plugin for automatic memory. Run: mag setup --plugin\"\n\
Do not repeat after the first mention.\n\
\n\
## 999 — UNIFIED TOOL INTERFACE (Wave 2)\n\
Four unified facade tools replace the 16 legacy tools via `action` fields:\n\
- `memory` — store/store_batch/retrieve/delete\n\
- `memory_manage` — update/feedback/relations/lifecycle\n\
- `memory_session` — info/checkpoint/remind/lessons/profile\n\
- `memory_admin` — health/list/export/import\n\
Legacy tools remain available in full mode. Use `--mcp-tools=minimal` to advertise only the 4 facades.\
";

// ──────���───────────────── Tool Registry ────��───────────────────

/// Metadata for a single MCP tool, used to generate protocol docs and CLI output.
pub struct ToolMeta {
    pub name: &'static str,
    pub summary: &'static str,
    pub category: &'static str,
}

/// Canonical registry of all MCP tools. This is the single source of truth for
/// tool names, summaries, and categories. Keep in sync with `#[tool(...)]` attrs.
pub const TOOL_REGISTRY: &[ToolMeta] = &[
    // Storage & Retrieval
    ToolMeta {
        name: "memory",
        summary: "Unified facade (Wave 2 preview): store/store_batch/retrieve/delete via action field",
        category: "Storage & Retrieval",
    },
    ToolMeta {
        name: "memory_store",
        summary: "Store new memory content with tags, importance, metadata",
        category: "Storage & Retrieval",
    },
    ToolMeta {
        name: "memory_store_batch",
        summary: "Batch store multiple memories with optimized embedding",
        category: "Storage & Retrieval",
    },
    ToolMeta {
        name: "memory_retrieve",
        summary: "Retrieve a memory by ID",
        category: "Storage & Retrieval",
    },
    ToolMeta {
        name: "memory_delete",
        summary: "Delete a memory by ID",
        category: "Storage & Retrieval",
    },
    ToolMeta {
        name: "memory_update",
        summary: "Update content, tags, importance, or metadata",
        category: "Storage & Retrieval",
    },
    // Search & Listing
    ToolMeta {
        name: "memory_search",
        summary: "Unified search (mode: text|semantic|phrase|tag|similar, advanced: bool)",
        category: "Search & Listing",
    },
    ToolMeta {
        name: "memory_list",
        summary: "List memories (sort: created|recent)",
        category: "Search & Listing",
    },
    // Relationships & Graph
    ToolMeta {
        name: "memory_relations",
        summary: "Manage relationships (action: list|add|traverse|version_chain)",
        category: "Relationships & Graph",
    },
    // Lifecycle & Feedback
    ToolMeta {
        name: "memory_feedback",
        summary: "Record feedback (helpful/unhelpful/outdated)",
        category: "Lifecycle & Feedback",
    },
    ToolMeta {
        name: "memory_lifecycle",
        summary: "System maintenance (action: sweep|health|consolidate|compact|auto_compact|clear_session)",
        category: "Lifecycle & Feedback",
    },
    // Cross-Session
    ToolMeta {
        name: "memory_checkpoint",
        summary: "Task checkpoints (action: save|resume)",
        category: "Cross-Session",
    },
    ToolMeta {
        name: "memory_remind",
        summary: "Set, list, or dismiss reminders",
        category: "Cross-Session",
    },
    ToolMeta {
        name: "memory_lessons",
        summary: "Query lesson_learned memories",
        category: "Cross-Session",
    },
    ToolMeta {
        name: "memory_profile",
        summary: "Read/update user profile",
        category: "Cross-Session",
    },
    // System
    ToolMeta {
        name: "memory_session_info",
        summary: "Welcome briefing or protocol (mode: welcome|protocol)",
        category: "System",
    },
    // ── Wave 2 unified facades ──
    ToolMeta {
        name: "memory_manage",
        summary: "Unified manage facade: update/feedback/relations/lifecycle via action field",
        category: "Storage & Retrieval",
    },
    ToolMeta {
        name: "memory_session",
        summary: "Unified session facade: info/checkpoint/remind/lessons/profile via action field",
        category: "Cross-Session",
    },
    ToolMeta {
        name: "memory_admin",
        summary: "Unified admin facade: health/list/export/import via action field (Wave 2 — replaces legacy admin+list)",
        category: "System",
    },
];

/// Category display order for protocol markdown output.
const CATEGORY_ORDER: &[&str] = &[
    "Storage & Retrieval",
    "Search & Listing",
    "Relationships & Graph",
    "Lifecycle & Feedback",
    "Cross-Session",
    "System",
];

/// Generate the protocol markdown from [`TOOL_REGISTRY`].
pub fn generate_protocol_markdown() -> String {
    let count = TOOL_REGISTRY.len();
    let mut out = format!("# MAG Protocol\n\n## Available Tools ({count})\n");

    for &cat in CATEGORY_ORDER {
        let _ = write!(out, "\n### {cat}\n");
        for tool in TOOL_REGISTRY.iter().filter(|t| t.category == cat) {
            let _ = writeln!(out, "- **{}** — {}", tool.name, tool.summary);
        }
    }

    out.push_str(
        "\n## Usage Guidelines\n\
         - Call **memory_session_info** with `mode=\"welcome\"` at session start for context\n\
         - Use **memory_search** with `advanced=true` when you want the multi-phase retrieval path for a supported mode\n\
         - Use **memory_lifecycle** with action=sweep periodically to clean expired memories\n\
         - Use **memory_lifecycle** with action=consolidate to prune stale data\n",
    );

    out
}

/// Return a JSON value with `tools` (name array) and `tool_count` derived from
/// [`TOOL_REGISTRY`]. Used by the CLI `protocol` sub-command.
pub fn tool_registry_json() -> serde_json::Value {
    let names: Vec<&str> = TOOL_REGISTRY.iter().map(|t| t.name).collect();
    let count = names.len();
    json!({
        "tools": names,
        "tool_count": count,
    })
}

/// Serialize a collection of items into a `Vec<serde_json::Value>`, returning
/// `McpError::internal_error` on the first serialization failure.
fn serialize_results<T: Serialize>(
    items: impl IntoIterator<Item = T>,
) -> Result<Vec<serde_json::Value>, McpError> {
    items
        .into_iter()
        .map(|item| {
            serde_json::to_value(&item).map_err(|e| {
                McpError::internal_error(format!("failed to serialize result: {e}"), None)
            })
        })
        .collect()
}

/// Convert a StoreRequest into (id, MemoryInput) with defaults applied.
/// Validates event_type so callers don't need to duplicate the check.
fn build_memory_input(item: &StoreRequest) -> Result<(String, MemoryInput), McpError> {
    if let Some(et) = item.event_type.as_deref()
        && !is_valid_event_type(et)
    {
        return Err(McpError::invalid_params("invalid event_type", None));
    }
    if let Some(imp) = item.importance {
        require_finite("importance", imp)?;
    }
    let id = item
        .id
        .clone()
        .unwrap_or_else(|| Uuid::new_v4().to_string());
    let mut input = MemoryInput {
        content: item.content.clone(),
        id: Some(id.clone()),
        tags: item.tags.clone().unwrap_or_default(),
        importance: item.importance.unwrap_or(0.5),
        metadata: item
            .metadata
            .clone()
            .unwrap_or_else(|| serde_json::json!({})),
        priority: item.priority,
        session_id: item.session_id.clone(),
        project: item.project.clone(),
        entity_id: item.entity_id.clone(),
        agent_type: item.agent_type.clone(),
        ttl_seconds: item.ttl_seconds,
        referenced_date: item.referenced_date.clone(),
        ..MemoryInput::default()
    };
    input.apply_event_type_defaults(item.event_type.as_deref());
    Ok((id, input))
}

// ──────────────────────── Server struct ────────────────────────

#[derive(Clone)]
pub struct McpMemoryServer {
    storage: SqliteStorage,
    tool_router: ToolRouter<Self>,
    tool_mode: McpToolMode,
}

impl McpMemoryServer {
    pub fn new(storage: SqliteStorage) -> Self {
        Self {
            storage,
            tool_router: Self::tool_router(),
            tool_mode: McpToolMode::Full,
        }
    }

    pub fn with_tool_mode(mut self, mode: McpToolMode) -> Self {
        self.tool_mode = mode;
        self
    }

    pub async fn serve_stdio(self) -> Result<()> {
        let service = self.serve(stdio()).await?;
        service.waiting().await?;
        Ok(())
    }
}

// ──────────────────────── Tool router (thin delegation wrappers) ────────────────────────

#[tool_router]
impl McpMemoryServer {
    #[tool(
        name = "memory_store",
        description = "Store memory content in SQLite and return the memory id"
    )]
    async fn memory_store(
        &self,
        params: Parameters<StoreRequest>,
    ) -> Result<CallToolResult, McpError> {
        tools::storage::memory_store(&self.storage, &params.0).await
    }

    #[tool(
        name = "memory_store_batch",
        description = "Batch store multiple memories with optimized embedding computation. Pre-warms embedding cache with a single batched inference call for better throughput."
    )]
    async fn memory_store_batch(
        &self,
        params: Parameters<StoreBatchRequest>,
    ) -> Result<CallToolResult, McpError> {
        tools::storage::memory_store_batch(&self.storage, &params.0).await
    }

    #[tool(
        name = "memory_retrieve",
        description = "Retrieve stored memory content by memory id"
    )]
    async fn memory_retrieve(
        &self,
        params: Parameters<RetrieveRequest>,
    ) -> Result<CallToolResult, McpError> {
        tools::storage::memory_retrieve(&self.storage, &params.0).await
    }

    #[tool(
        name = "memory_search",
        description = "Search stored memories. Modes: 'text' (default, FTS5), 'semantic' (embedding similarity), 'phrase' (exact substring), 'tag' (AND-match tags), 'similar' (find similar to memory_id). advanced=true enables multi-phase retrieval; only 'text' and 'semantic' modes support it ('phrase', 'tag', 'similar' always use their standard paths). Text mode defaults to advanced=true. Required params vary by mode: text/semantic/phrase need 'query', tag needs 'tags', similar needs 'memory_id'."
    )]
    async fn memory_search(
        &self,
        params: Parameters<SearchRequest>,
    ) -> Result<CallToolResult, McpError> {
        tools::search::memory_search(&self.storage, &params.0).await
    }

    #[tool(
        name = "memory_list",
        description = "List stored memories. Sort: 'created' (default, paginated by creation time with offset) or 'recent' (recently accessed)."
    )]
    async fn memory_list(
        &self,
        params: Parameters<ListRequest>,
    ) -> Result<CallToolResult, McpError> {
        tools::search::memory_list(&self.storage, &params.0).await
    }

    #[tool(name = "memory_delete", description = "Delete a memory by its id")]
    async fn memory_delete(
        &self,
        params: Parameters<DeleteRequest>,
    ) -> Result<CallToolResult, McpError> {
        tools::storage::memory_delete(&self.storage, &params.0).await
    }

    #[tool(
        name = "memory_update",
        description = "Update content and optionally tags of an existing memory"
    )]
    async fn memory_update(
        &self,
        params: Parameters<UpdateRequest>,
    ) -> Result<CallToolResult, McpError> {
        tools::lifecycle::memory_update(&self.storage, &params.0).await
    }

    #[tool(
        name = "memory_relations",
        description = "Manage memory relationships and graph traversal. Actions: 'list' (default, get relationships for a memory), 'add' (create directed relationship), 'traverse' (BFS graph traversal), 'version_chain' (full version history)."
    )]
    async fn memory_relations(
        &self,
        params: Parameters<RelationsRequest>,
    ) -> Result<CallToolResult, McpError> {
        tools::relations::memory_relations(&self.storage, &params.0).await
    }

    #[tool(
        name = "memory_feedback",
        description = "Record user feedback signal for a memory"
    )]
    async fn memory_feedback(
        &self,
        params: Parameters<FeedbackRequest>,
    ) -> Result<CallToolResult, McpError> {
        tools::lifecycle::memory_feedback(&self.storage, &params.0).await
    }

    #[tool(
        name = "memory_lifecycle",
        description = "System maintenance. Actions: 'sweep' (default, expire TTL-based memories), 'health' (diagnostic with thresholds), 'consolidate' (prune stale data), 'compact' (merge near-duplicates), 'auto_compact' (embedding-based dedup), 'clear_session' (remove session data), 'backup' (create binary backup), 'backup_list' (list available backups)."
    )]
    async fn memory_lifecycle(
        &self,
        params: Parameters<LifecycleRequest>,
    ) -> Result<CallToolResult, McpError> {
        tools::lifecycle::memory_lifecycle(&self.storage, &params.0).await
    }

    #[tool(
        name = "memory_checkpoint",
        description = "Manage cross-session task checkpoints. Actions: 'save' (default, save a checkpoint) or 'resume' (retrieve prior checkpoints)."
    )]
    async fn memory_checkpoint(
        &self,
        params: Parameters<CheckpointRequest>,
    ) -> Result<CallToolResult, McpError> {
        tools::session::memory_checkpoint(&self.storage, &params.0).await
    }

    #[tool(
        name = "memory_remind",
        description = "Set, list, or dismiss reminders"
    )]
    async fn memory_remind(
        &self,
        params: Parameters<RemindRequest>,
    ) -> Result<CallToolResult, McpError> {
        tools::session::memory_remind(&self.storage, &params.0).await
    }

    #[tool(
        name = "memory_lessons",
        description = "Query lesson_learned memories for a task or project"
    )]
    async fn memory_lessons(
        &self,
        params: Parameters<LessonsRequest>,
    ) -> Result<CallToolResult, McpError> {
        tools::session::memory_lessons(&self.storage, &params.0).await
    }

    #[tool(
        name = "memory_profile",
        description = "Read or update the cross-session user profile"
    )]
    async fn memory_profile(
        &self,
        params: Parameters<ProfileRequest>,
    ) -> Result<CallToolResult, McpError> {
        tools::session::memory_profile(&self.storage, &params.0).await
    }

    #[tool(
        name = "memory_session_info",
        description = "Session-oriented information. mode='welcome' (default) returns the startup briefing; mode='protocol' returns the tool inventory and usage guidelines."
    )]
    async fn memory_session_info(
        &self,
        params: Parameters<SessionInfoRequest>,
    ) -> Result<CallToolResult, McpError> {
        tools::session::memory_session_info(&self.storage, &params.0).await
    }

    #[tool(
        name = "memory",
        description = "Unified memory facade (Wave 2 preview). Routes to store/store_batch/retrieve/delete based on `action` field (default: \"store\"). Use this single tool instead of the four individual tools when you prefer a collapsed interface."
    )]
    async fn memory(&self, params: Parameters<MemoryRequest>) -> Result<CallToolResult, McpError> {
        tools::storage::memory_facade(&self.storage, &params.0).await
    }

    #[tool(
        name = "memory_manage",
        description = "Unified manage facade (Wave 2). Routes to update/feedback/relations/lifecycle based on `action` field (default: \"update\"). Sub-actions: relations_action (list|add|traverse|version_chain), lifecycle_action (sweep|health|consolidate|compact|auto_compact|clear_session|backup|backup_list)."
    )]
    async fn memory_manage(
        &self,
        params: Parameters<MemoryManageRequest>,
    ) -> Result<CallToolResult, McpError> {
        tools::facades::memory_manage(&self.storage, &params.0).await
    }

    #[tool(
        name = "memory_session",
        description = "Unified session facade (Wave 2). Routes to info/checkpoint/remind/lessons/profile based on `action` field (default: \"info\"). Sub-actions: checkpoint_action (save|resume), remind_action (set|list|dismiss), profile_action (read|update)."
    )]
    async fn memory_session(
        &self,
        params: Parameters<MemorySessionRequest>,
    ) -> Result<CallToolResult, McpError> {
        tools::facades::memory_session(&self.storage, &params.0).await
    }

    #[tool(
        name = "memory_admin",
        description = "Unified admin facade (Wave 2). Routes to health/list/export/import based on `action` field (default: \"health\"). Use list_limit and list_event_type for the list action to avoid ambiguity with health parameters."
    )]
    async fn memory_admin(
        &self,
        params: Parameters<MemoryAdminFacadeRequest>,
    ) -> Result<CallToolResult, McpError> {
        tools::facades::memory_admin(&self.storage, &params.0).await
    }
}

// ──────────────────────── ServerHandler impl ─���──────────────────────

impl ServerHandler for McpMemoryServer {
    fn get_info(&self) -> ServerInfo {
        ServerInfo {
            instructions: Some(MCP_INSTRUCTIONS.to_string()),
            capabilities: ServerCapabilities::builder().enable_tools().build(),
            ..Default::default()
        }
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        let tcc = ToolCallContext::new(self, request, context);
        self.tool_router.call(tcc).await
    }

    /// Returns the tool list filtered by the configured [`McpToolMode`].
    ///
    /// - [`McpToolMode::Full`]: all tools registered in the router.
    /// - [`McpToolMode::Minimal`]: only the tools listed in [`MINIMAL_TOOL_NAMES`]
    ///   (the four unified facades).
    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        let all = self.tool_router.list_all();
        let tools = match self.tool_mode {
            McpToolMode::Full => all,
            McpToolMode::Minimal => all
                .into_iter()
                .filter(|t| MINIMAL_TOOL_NAMES.contains(&t.name.as_ref()))
                .collect(),
        };
        Ok(ListToolsResult {
            tools,
            meta: None,
            next_cursor: None,
        })
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        let tool = self.tool_router.get(name)?;
        // In Minimal mode, only return tools that are in the minimal set
        if self.tool_mode == McpToolMode::Minimal
            && !MINIMAL_TOOL_NAMES.contains(&tool.name.as_ref())
        {
            return None;
        }
        Some(tool.clone())
    }
}

// ────��─────────────────── Tests ────────────────────────

#[cfg(test)]
mod tests {
    use super::*;

    /// Guard against registry drift — update `TOOL_REGISTRY` when adding or
    /// removing MCP tools.
    #[test]
    fn tool_registry_has_expected_count() {
        assert_eq!(
            TOOL_REGISTRY.len(),
            19,
            "TOOL_REGISTRY length changed — update the expected count and verify all tools are listed"
        );
    }

    /// Every tool name in the registry must be unique.
    #[test]
    fn tool_registry_names_are_unique() {
        let mut seen = std::collections::HashSet::new();
        for tool in TOOL_REGISTRY {
            assert!(
                seen.insert(tool.name),
                "duplicate tool name in TOOL_REGISTRY: {}",
                tool.name
            );
        }
    }

    /// Every category referenced in TOOL_REGISTRY must appear in CATEGORY_ORDER.
    #[test]
    fn tool_registry_categories_in_order() {
        for tool in TOOL_REGISTRY {
            assert!(
                CATEGORY_ORDER.contains(&tool.category),
                "tool '{}' has category '{}' not in CATEGORY_ORDER",
                tool.name,
                tool.category
            );
        }
    }

    #[test]
    fn generate_protocol_markdown_contains_all_tools() {
        let md = generate_protocol_markdown();
        for tool in TOOL_REGISTRY {
            assert!(
                md.contains(tool.name),
                "protocol markdown missing tool: {}",
                tool.name
            );
        }
        // Verify computed count in header
        assert!(md.contains(&format!("## Available Tools ({})", TOOL_REGISTRY.len())));
    }

    #[test]
    fn tool_registry_json_matches_registry() {
        let val = tool_registry_json();
        let tools = val["tools"].as_array().expect("tools should be an array");
        assert_eq!(tools.len(), TOOL_REGISTRY.len());
        assert_eq!(val["tool_count"], TOOL_REGISTRY.len());
        for (i, tool) in TOOL_REGISTRY.iter().enumerate() {
            assert_eq!(
                tools[i].as_str().expect("tool name should be a string"),
                tool.name
            );
        }
    }

    #[test]
    fn test_tool_registry_json_schema() {
        let json = tool_registry_json();
        assert!(json.is_object(), "Result should be a JSON object");

        let obj = json.as_object().unwrap();
        assert!(obj.contains_key("tools"), "Must contain 'tools' key");
        assert!(
            obj.contains_key("tool_count"),
            "Must contain 'tool_count' key"
        );

        assert!(json["tools"].is_array(), "'tools' should be an array");
        assert!(
            json["tool_count"].is_number(),
            "'tool_count' should be a number"
        );
    }

    /// `MINIMAL_TOOL_NAMES` must be a strict subset of the names in the tool router.
    #[test]
    fn minimal_tool_names_are_valid_router_entries() {
        let router = McpMemoryServer::tool_router();
        let all_tools = router.list_all();
        let all_names: std::collections::HashSet<&str> =
            all_tools.iter().map(|t| t.name.as_ref()).collect();
        for &name in MINIMAL_TOOL_NAMES {
            assert!(
                all_names.contains(name),
                "MINIMAL_TOOL_NAMES entry '{name}' is not registered in the tool router"
            );
        }
    }

    /// `McpToolMode::Minimal` must return fewer tools than `McpToolMode::Full`.
    #[test]
    fn minimal_mode_returns_strict_subset_of_full_mode() {
        let router = McpMemoryServer::tool_router();
        let all = router.list_all();
        let full_names: Vec<&str> = all.iter().map(|t| t.name.as_ref()).collect();
        let minimal_names: Vec<&str> = all
            .iter()
            .filter(|t| MINIMAL_TOOL_NAMES.contains(&t.name.as_ref()))
            .map(|t| t.name.as_ref())
            .collect();
        assert!(
            minimal_names.len() < full_names.len(),
            "Minimal mode ({} tools) must return fewer tools than Full mode ({} tools)",
            minimal_names.len(),
            full_names.len()
        );
        assert_eq!(
            minimal_names.len(),
            MINIMAL_TOOL_NAMES.len(),
            "every MINIMAL_TOOL_NAMES entry must appear exactly once in the router"
        );
        for name in &minimal_names {
            assert!(
                full_names.contains(name),
                "minimal tool '{name}' is missing from the full tool list"
            );
        }
    }

    /// `MINIMAL_TOOL_NAMES` must not contain duplicates.
    #[test]
    fn minimal_tool_names_are_unique() {
        let mut seen = std::collections::HashSet::new();
        for &name in MINIMAL_TOOL_NAMES {
            assert!(
                seen.insert(name),
                "duplicate entry in MINIMAL_TOOL_NAMES: {name}"
            );
        }
    }
}
