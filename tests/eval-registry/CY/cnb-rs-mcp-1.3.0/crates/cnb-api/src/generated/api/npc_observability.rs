use crate::client::CnbClient;
use crate::error::ApiError;
use crate::generated::types::NpcActionListResult;
use crate::generated::types::NpcCommitListResult;
use crate::generated::types::NpcPrListResult;
use serde::Serialize;

/// 查询 NPC 调用记录。List NPC actions. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct NpcObservabilityActionsParams {
    /// 结束时间，ISO8601 格式，默认当前时间；与 `start_time` 跨度 ≤ 90 天。End time in ISO8601, default now. Range <= 90 days.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_time: Option<String>,
    /// 事件类型，仅支持 "issue.comment@npc" 与 "`pull_request.comment`@npc"。Event type.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event: Option<String>,
    /// NPC 角色名。NPC role name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub npc_name: Option<String>,
    /// NPC 仓库 slug。NPC repo slug.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub npc_slug: Option<String>,
    /// 分页页码，默认 1；仅 page=1 返回 total，翻页 total=0。Pagination page number, default(1); total only returned when page=1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    /// 分页页大小，默认 20，最大 100。Pagination page size, default(20), max(100).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_size: Option<i64>,
    /// 起始时间，ISO8601 格式，例如 "2026-06-10T00:00:00Z"，默认 7 天前。Start time in ISO8601, default 7 days ago.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_time: Option<String>,
    /// 评论作者用户名。Comment author username.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trigger_username: Option<String>,
}

/// 查询 NPC push 记录。List NPC commit pushes. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct NpcObservabilityCommitsParams {
    /// 结束时间，ISO8601 格式，默认当前；与 `start_time` 跨度 ≤ 90 天。End time in ISO8601, default now. Range <= 90 days.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_time: Option<String>,
    /// NPC 角色名。NPC role name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub npc_name: Option<String>,
    /// NPC 仓库 slug。NPC repo slug.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub npc_slug: Option<String>,
    /// 分页页码，默认 1；仅 page=1 返回 total，翻页 total=0。Pagination page number, default(1); total only returned when page=1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    /// 分页页大小，默认 20，最大 100。Pagination page size, default(20), max(100).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_size: Option<i64>,
    /// 起始时间，ISO8601 格式，默认 7 天前。Start time in ISO8601, default 7 days ago.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_time: Option<String>,
}

/// 查询 NPC 提交的 PR。List `PRs` by NPC. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct NpcObservabilityPrsParams {
    /// 结束时间，按 PR 创建时间过滤；与 `start_time` 跨度 ≤ 90 天。End time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_time: Option<String>,
    /// NPC 角色名。NPC role name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub npc_name: Option<String>,
    /// NPC 仓库 slug。NPC repo slug.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub npc_slug: Option<String>,
    /// 分页页码，默认 1；仅 page=1 返回 total，翻页 total=0。Pagination page number, default(1); total only returned when page=1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    /// 分页页大小，默认 20，最大 100。Pagination page size, default(20), max(100).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_size: Option<i64>,
    /// 起始时间，按 PR 创建时间过滤。Start time, filter by PR creation time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_time: Option<String>,
    /// PR 状态：open / merged / closed。PR state.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
}

impl CnbClient {
    /// 查询 NPC 调用记录。List NPC actions.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn npc_observability_actions(
        &self,
        repo: &str,
        params: &NpcObservabilityActionsParams,
    ) -> Result<NpcActionListResult, ApiError> {
        let url = format!("{}/{}/-/npc-observability/actions", self.base_url, repo);
        self.get_with_query(&url, params).await
    }

    /// 查询 NPC push 记录。List NPC commit pushes.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn npc_observability_commits(
        &self,
        repo: &str,
        params: &NpcObservabilityCommitsParams,
    ) -> Result<NpcCommitListResult, ApiError> {
        let url = format!("{}/{}/-/npc-observability/commits", self.base_url, repo);
        self.get_with_query(&url, params).await
    }

    /// 查询 NPC 提交的 PR。List `PRs` by NPC.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn npc_observability_prs(
        &self,
        repo: &str,
        params: &NpcObservabilityPrsParams,
    ) -> Result<NpcPrListResult, ApiError> {
        let url = format!("{}/{}/-/npc-observability/prs", self.base_url, repo);
        self.get_with_query(&url, params).await
    }
}
