use crate::client::CnbClient;
use crate::error::ApiError;
use crate::generated::types::StartWorkspaceReq;
use crate::generated::types::StartWorkspaceResult;
use crate::generated::types::WorkspaceDeleteReq;
use crate::generated::types::WorkspaceDeleteResult;
use crate::generated::types::WorkspaceDetailResult;
use crate::generated::types::WorkspaceListResult;
use crate::generated::types::WorkspaceStopReq;
use crate::generated::types::WorkspaceStopResult;
use serde::Serialize;

/// 获取我的云原生开发环境列表。List my workspaces. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct ListWorkspacesParams {
    /// Git分支名，例如 "main"。Git branch name, e.g. "main"
    #[serde(skip_serializing_if = "Option::is_none")]
    pub branch: Option<String>,
    /// 查询结束时间。Query end time. format YYYY-MM-DD `HH:mm:ssZZ`, e.g. 2024-12-01 00:00:00+0800
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end: Option<String>,
    /// 分页页码，默认1。Pagination page number, default(1)
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    /// 分页页大小，默认20，最大100。Pagination page size, default(20), max(100)
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_size: Option<i64>,
    /// 仓库路径，例如 "groupname/reponame"。Repository path, e.g. "groupname/reponame"
    #[serde(skip_serializing_if = "Option::is_none")]
    pub slug: Option<String>,
    /// 查询开始时间。Query start time. format YYYY-MM-DD `HH:mm:ssZZ`, e.g. 2024-12-01 00:00:00+0800
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
    /// 开发环境状态，running: 开发环境已启动，closed：开发环境已关闭。Workspace status: "running" for started, "closed" for stopped.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
}

impl CnbClient {
    /// 删除我的云原生开发环境。Delete my workspace.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn delete_workspace(
        &self,
        body: &WorkspaceDeleteReq,
    ) -> Result<WorkspaceDeleteResult, ApiError> {
        let url = format!("{}/workspace/delete", self.base_url);
        self.post_json(&url, body).await
    }

    /// 获取我的云原生开发环境列表。List my workspaces.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn list_workspaces(
        &self,
        params: &ListWorkspacesParams,
    ) -> Result<WorkspaceListResult, ApiError> {
        let url = format!("{}/workspace/list", self.base_url);
        self.get_with_query(&url, params).await
    }

    /// 停止/关闭我的云原生开发环境。Stop/close my workspace.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn workspace_stop(
        &self,
        body: &WorkspaceStopReq,
    ) -> Result<WorkspaceStopResult, ApiError> {
        let url = format!("{}/workspace/stop", self.base_url);
        self.post_json(&url, body).await
    }

    /// 获取云原生开发地址。Get workspace access URL.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_workspace_detail(
        &self,
        repo: &str,
        sn: &str,
    ) -> Result<WorkspaceDetailResult, ApiError> {
        let url = format!("{}/{}/-/workspace/detail/{}", self.base_url, repo, sn);
        self.get(&url).await
    }

    /// 启动云原生开发。Start cloud-native development.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn start_workspace(
        &self,
        repo: &str,
        body: &StartWorkspaceReq,
    ) -> Result<StartWorkspaceResult, ApiError> {
        let url = format!("{}/{}/-/workspace/start", self.base_url, repo);
        self.post_json(&url, body).await
    }
}
