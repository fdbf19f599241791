use cnb_api::client::CnbClient;
use cnb_api::generated::api::pulls::{ListPullCommentsParams, ListPullsParams};
use cnb_api::generated::types::{
    MergePullRequest, PatchPullRequest, PullCommentCreationForm, PullCreationForm,
};
use rmcp::schemars::JsonSchema;
use serde::Deserialize;

use crate::error::api_err;

#[derive(Deserialize, JsonSchema)]
pub(crate) struct ListPullsInput {
    /// 仓库路径，格式为 group/repo
    pub repo: String,
    /// PR 状态：open / closed / all
    pub state: Option<String>,
    /// 排序字段：`created_at` / `-created_at` / `-updated_at`
    pub order_by: Option<String>,
    /// 页码
    pub page: Option<i64>,
    /// 每页条数
    pub page_size: Option<i64>,
}

pub(crate) async fn list_pulls(
    client: &CnbClient,
    input: ListPullsInput,
) -> Result<String, String> {
    let params = ListPullsParams {
        state: input.state,
        order_by: input.order_by,
        page: input.page,
        page_size: input.page_size,
        ..Default::default()
    };
    client
        .list_pulls(&input.repo, &params)
        .await
        .map(|v| serde_json::to_string(&v).unwrap_or_default())
        .map_err(api_err)
}

#[derive(Deserialize, JsonSchema)]
pub(crate) struct GetPullInput {
    /// 仓库路径
    pub repo: String,
    /// PR 编号
    pub number: i64,
}

pub(crate) async fn get_pull(client: &CnbClient, input: GetPullInput) -> Result<String, String> {
    let number = input.number.to_string();
    client
        .get_pull(&input.repo, &number)
        .await
        .map(|v| serde_json::to_string(&v).unwrap_or_default())
        .map_err(api_err)
}

#[derive(Deserialize, JsonSchema)]
pub(crate) struct CreatePullInput {
    /// 目标仓库路径，格式为 group/repo
    pub repo: String,
    /// 标题
    pub title: String,
    /// 来源分支
    pub head: String,
    /// 目标分支
    pub base: String,
    /// 描述
    pub body: Option<String>,
    /// 来源仓库路径（跨仓库 PR 时使用）
    pub head_repo: Option<String>,
}

pub(crate) async fn create_pull(
    client: &CnbClient,
    input: CreatePullInput,
) -> Result<String, String> {
    let form = PullCreationForm {
        title: Some(input.title),
        head: Some(input.head),
        base: Some(input.base),
        body: input.body,
        head_repo: input.head_repo,
    };
    client
        .post_pull(&input.repo, &form)
        .await
        .map(|v| serde_json::to_string(&v).unwrap_or_default())
        .map_err(api_err)
}

#[derive(Deserialize, JsonSchema)]
pub(crate) struct UpdatePullInput {
    /// 仓库路径
    pub repo: String,
    /// PR 编号
    pub number: i64,
    /// 标题
    pub title: Option<String>,
    /// 描述
    pub body: Option<String>,
    /// 状态：open / closed
    pub state: Option<String>,
}

pub(crate) async fn update_pull(
    client: &CnbClient,
    input: UpdatePullInput,
) -> Result<String, String> {
    let number = input.number.to_string();
    let form = PatchPullRequest {
        title: input.title,
        body: input.body,
        state: input.state,
    };
    client
        .patch_pull(&input.repo, &number, &form)
        .await
        .map(|v| serde_json::to_string(&v).unwrap_or_default())
        .map_err(api_err)
}

#[derive(Deserialize, JsonSchema)]
pub(crate) struct MergePullInput {
    /// 仓库路径
    pub repo: String,
    /// PR 编号
    pub number: i64,
    /// 合并提交标题
    pub commit_title: String,
    /// 合并方式：merge / squash / rebase
    pub merge_style: Option<String>,
    /// 合并提交信息
    pub commit_message: Option<String>,
    /// 是否强制合并；设为 `true` 会绕过分支保护，仅仓库 owner / admin 可用
    pub force: Option<bool>,
}

pub(crate) async fn merge_pull(
    client: &CnbClient,
    input: MergePullInput,
) -> Result<String, String> {
    let number = input.number.to_string();
    let form = MergePullRequest {
        commit_title: Some(input.commit_title),
        merge_style: input.merge_style,
        commit_message: input.commit_message,
        // 只在明确要求强制合并时发送 force=true，false 不下发以保持服务端默认行为
        force: input.force.filter(|force| *force),
    };
    client
        .merge_pull(&input.repo, &number, &form)
        .await
        .map(|v| serde_json::to_string(&v).unwrap_or_default())
        .map_err(api_err)
}

#[derive(Deserialize, JsonSchema)]
pub(crate) struct ListPullCommentsInput {
    /// 仓库路径
    pub repo: String,
    /// PR 编号
    pub number: i64,
    /// 页码
    pub page: Option<i64>,
    /// 每页条数
    pub page_size: Option<i64>,
}

pub(crate) async fn list_pull_comments(
    client: &CnbClient,
    input: ListPullCommentsInput,
) -> Result<String, String> {
    let number = input.number.to_string();
    let params = ListPullCommentsParams {
        page: input.page,
        page_size: input.page_size,
    };
    client
        .list_pull_comments(&input.repo, &number, &params)
        .await
        .map(|v| serde_json::to_string(&v).unwrap_or_default())
        .map_err(api_err)
}

#[derive(Deserialize, JsonSchema)]
pub(crate) struct CreatePullCommentInput {
    /// 仓库路径
    pub repo: String,
    /// PR 编号
    pub number: i64,
    /// 评论内容
    pub body: String,
    #[schemars(
        description = "开启 NPC 工作模式：评论中需 @ NPC；授予其写代码 / 推分支 / 发 PR 权限，需仓库开发者及以上；仅为 true 时下发"
    )]
    pub work_mode: Option<bool>,
}

pub(crate) async fn create_pull_comment(
    client: &CnbClient,
    input: CreatePullCommentInput,
) -> Result<String, String> {
    let number = input.number.to_string();
    let form = PullCommentCreationForm {
        body: Some(input.body),
        work_mode: input.work_mode.filter(|work_mode| *work_mode),
    };
    client
        .post_pull_comment(&input.repo, &number, &form)
        .await
        .map(|v| serde_json::to_string(&v).unwrap_or_default())
        .map_err(api_err)
}
