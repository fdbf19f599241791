use cnb_api::client::CnbClient;
use cnb_api::generated::api::workspace::ListWorkspacesParams;
use cnb_api::generated::types::{StartWorkspaceReq, WorkspaceDeleteReq};
use rmcp::schemars::JsonSchema;
use serde::Deserialize;

use crate::error::api_err;

#[derive(Deserialize, JsonSchema)]
pub(crate) struct ListWorkspacesInput {
    /// 仓库路径，如 groupname/reponame
    pub slug: Option<String>,
    /// 分支名
    pub branch: Option<String>,
    /// 状态：running / closed
    pub status: Option<String>,
    /// 页码
    pub page: Option<i64>,
    /// 每页条数
    pub page_size: Option<i64>,
}

pub(crate) async fn list_workspaces(
    client: &CnbClient,
    input: ListWorkspacesInput,
) -> Result<String, String> {
    let params = ListWorkspacesParams {
        slug: input.slug,
        branch: input.branch,
        status: input.status,
        page: input.page,
        page_size: input.page_size,
        ..Default::default()
    };
    client
        .list_workspaces(&params)
        .await
        .map(|v| serde_json::to_string(&v).unwrap_or_default())
        .map_err(api_err)
}

#[derive(Deserialize, JsonSchema)]
pub(crate) struct DeleteWorkspaceInput {
    /// 开发环境 ID（`pipeline_id`）
    pub pipeline_id: String,
}

pub(crate) async fn delete_workspace(
    client: &CnbClient,
    input: DeleteWorkspaceInput,
) -> Result<String, String> {
    let body = WorkspaceDeleteReq {
        pipeline_id: Some(input.pipeline_id),
        sn: None,
    };
    client
        .delete_workspace(&body)
        .await
        .map(|v| serde_json::to_string(&v).unwrap_or_default())
        .map_err(api_err)
}

#[derive(Deserialize, JsonSchema)]
pub(crate) struct StartWorkspaceInput {
    /// 仓库路径
    pub repo: String,
    /// 分支名或 tag 名
    pub branch: Option<String>,
    /// Git ref，如 refs/heads/main
    pub git_ref: Option<String>,
}

pub(crate) async fn start_workspace(
    client: &CnbClient,
    input: StartWorkspaceInput,
) -> Result<String, String> {
    let body = StartWorkspaceReq {
        branch: input.branch,
        ref_: input.git_ref,
    };
    client
        .start_workspace(&input.repo, &body)
        .await
        .map(|v| serde_json::to_string(&v).unwrap_or_default())
        .map_err(api_err)
}
