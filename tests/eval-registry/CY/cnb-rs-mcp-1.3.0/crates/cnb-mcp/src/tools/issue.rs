use cnb_api::client::CnbClient;
use cnb_api::generated::api::issues::{
    ListIssueCommentsParams, ListIssueLabelsParams, ListIssuesParams,
};
use cnb_api::generated::types::{
    PatchIssueCommentForm, PatchIssueForm, PostIssueCommentForm, PostIssueForm,
    PostIssueLabelsForm, PutIssueLabelsForm,
};
use rmcp::schemars::JsonSchema;
use serde::Deserialize;

use crate::error::api_err;

#[derive(Deserialize, JsonSchema)]
pub(crate) struct ListIssuesInput {
    /// 仓库路径
    pub repo: String,
    /// Issue 状态：open / closed
    pub state: Option<String>,
    /// 搜索关键词
    pub keyword: Option<String>,
    /// 优先级过滤，如 P0,P1,P2,P3
    pub priority: Option<String>,
    /// 标签过滤，逗号分隔
    pub labels: Option<String>,
    /// 创建者过滤，逗号分隔
    pub authors: Option<String>,
    /// 处理人过滤，逗号分隔；- 表示未分配
    pub assignees: Option<String>,
    /// 排序字段，如 `created_at`, `-updated_at`
    pub order_by: Option<String>,
    /// 页码，从 1 开始
    pub page: Option<i64>,
    /// 每页条数，默认 30
    pub page_size: Option<i64>,
}

pub(crate) async fn list_issues(
    client: &CnbClient,
    input: ListIssuesInput,
) -> Result<String, String> {
    let params = ListIssuesParams {
        state: input.state,
        keyword: input.keyword,
        priority: input.priority,
        labels: input.labels,
        authors: input.authors,
        assignees: input.assignees,
        order_by: input.order_by,
        page: input.page,
        page_size: input.page_size,
        ..Default::default()
    };
    client
        .list_issues(&input.repo, &params)
        .await
        .map(|v| serde_json::to_string(&v).unwrap_or_default())
        .map_err(api_err)
}

#[derive(Deserialize, JsonSchema)]
pub(crate) struct GetIssueInput {
    /// 仓库路径
    pub repo: String,
    /// Issue 编号
    pub number: i64,
}

pub(crate) async fn get_issue(client: &CnbClient, input: GetIssueInput) -> Result<String, String> {
    client
        .get_issue(&input.repo, input.number)
        .await
        .map(|v| serde_json::to_string(&v).unwrap_or_default())
        .map_err(api_err)
}

#[derive(Deserialize, JsonSchema)]
pub(crate) struct CreateIssueInput {
    /// 仓库路径
    pub repo: String,
    /// Issue 标题
    pub title: String,
    /// Issue 描述
    pub body: Option<String>,
    /// 处理人用户名列表
    pub assignees: Option<Vec<String>>,
    /// 标签列表
    pub labels: Option<Vec<String>>,
    /// 优先级，如 P0, P1, P2, P3
    pub priority: Option<String>,
    /// 开始日期，格式 YYYY-MM-DD
    pub start_date: Option<String>,
    /// 截止日期，格式 YYYY-MM-DD
    pub end_date: Option<String>,
}

pub(crate) async fn create_issue(
    client: &CnbClient,
    input: CreateIssueInput,
) -> Result<String, String> {
    let form = PostIssueForm {
        title: Some(input.title),
        body: input.body,
        assignees: input.assignees,
        labels: input.labels,
        priority: input.priority,
        start_date: input.start_date,
        end_date: input.end_date,
        ..Default::default()
    };
    client
        .create_issue(&input.repo, &form)
        .await
        .map(|v| serde_json::to_string(&v).unwrap_or_default())
        .map_err(api_err)
}

#[derive(Deserialize, JsonSchema)]
pub(crate) struct UpdateIssueInput {
    /// 仓库路径
    pub repo: String,
    /// Issue 编号
    pub number: i64,
    /// 标题
    pub title: Option<String>,
    /// 描述
    pub body: Option<String>,
    /// 状态：open / closed
    pub state: Option<String>,
    /// 状态原因：completed / `not_planned` / reopened
    pub state_reason: Option<String>,
    /// 优先级
    pub priority: Option<String>,
    /// 开始日期
    pub start_date: Option<String>,
    /// 截止日期
    pub end_date: Option<String>,
}

pub(crate) async fn update_issue(
    client: &CnbClient,
    input: UpdateIssueInput,
) -> Result<String, String> {
    let form = PatchIssueForm {
        title: input.title,
        body: input.body,
        state: input.state,
        state_reason: input.state_reason,
        priority: input.priority,
        start_date: input.start_date,
        end_date: input.end_date,
        ..Default::default()
    };
    client
        .update_issue(&input.repo, input.number, &form)
        .await
        .map(|v| serde_json::to_string(&v).unwrap_or_default())
        .map_err(api_err)
}

#[derive(Deserialize, JsonSchema)]
pub(crate) struct ListIssueCommentsInput {
    /// 仓库路径
    pub repo: String,
    /// Issue 编号
    pub number: i64,
    /// 页码
    pub page: Option<i64>,
    /// 每页条数
    pub page_size: Option<i64>,
}

pub(crate) async fn list_issue_comments(
    client: &CnbClient,
    input: ListIssueCommentsInput,
) -> Result<String, String> {
    let params = ListIssueCommentsParams {
        page: input.page,
        page_size: input.page_size,
        ..Default::default()
    };
    client
        .list_issue_comments(&input.repo, input.number, &params)
        .await
        .map(|v| serde_json::to_string(&v).unwrap_or_default())
        .map_err(api_err)
}

#[derive(Deserialize, JsonSchema)]
pub(crate) struct CreateIssueCommentInput {
    /// 仓库路径
    pub repo: String,
    /// Issue 编号
    pub number: i64,
    /// 评论内容
    pub body: String,
    #[schemars(
        description = "开启 NPC 工作模式：评论中需 @ NPC；授予其写代码 / 推分支 / 发 PR 权限，需仓库开发者及以上；仅为 true 时下发"
    )]
    pub work_mode: Option<bool>,
}

pub(crate) async fn create_issue_comment(
    client: &CnbClient,
    input: CreateIssueCommentInput,
) -> Result<String, String> {
    let form = PostIssueCommentForm {
        body: Some(input.body),
        work_mode: input.work_mode.filter(|work_mode| *work_mode),
    };
    client
        .post_issue_comment(&input.repo, input.number, &form)
        .await
        .map(|v| serde_json::to_string(&v).unwrap_or_default())
        .map_err(api_err)
}

#[derive(Deserialize, JsonSchema)]
pub(crate) struct UpdateIssueCommentInput {
    /// 仓库路径
    pub repo: String,
    /// Issue 编号
    pub number: i64,
    /// 评论 ID
    pub comment_id: i64,
    /// 评论内容
    pub body: String,
}

pub(crate) async fn update_issue_comment(
    client: &CnbClient,
    input: UpdateIssueCommentInput,
) -> Result<String, String> {
    let form = PatchIssueCommentForm {
        body: Some(input.body),
    };
    client
        .patch_issue_comment(&input.repo, input.number, input.comment_id, &form)
        .await
        .map(|v| serde_json::to_string(&v).unwrap_or_default())
        .map_err(api_err)
}

#[derive(Deserialize, JsonSchema)]
pub(crate) struct ListIssueLabelsInput {
    /// 仓库路径
    pub repo: String,
    /// Issue 编号
    pub number: i64,
}

pub(crate) async fn list_issue_labels(
    client: &CnbClient,
    input: ListIssueLabelsInput,
) -> Result<String, String> {
    let params = ListIssueLabelsParams::default();
    client
        .list_issue_labels(&input.repo, input.number, &params)
        .await
        .map(|v| serde_json::to_string(&v).unwrap_or_default())
        .map_err(api_err)
}

#[derive(Deserialize, JsonSchema)]
pub(crate) struct AddIssueLabelsInput {
    /// 仓库路径
    pub repo: String,
    /// Issue 编号
    pub number: i64,
    /// 要添加的标签列表
    pub labels: Vec<String>,
}

pub(crate) async fn add_issue_labels(
    client: &CnbClient,
    input: AddIssueLabelsInput,
) -> Result<String, String> {
    let form = PostIssueLabelsForm {
        labels: Some(input.labels),
    };
    client
        .post_issue_labels(&input.repo, input.number, &form)
        .await
        .map(|v| serde_json::to_string(&v).unwrap_or_default())
        .map_err(api_err)
}

#[derive(Deserialize, JsonSchema)]
pub(crate) struct SetIssueLabelsInput {
    /// 仓库路径
    pub repo: String,
    /// Issue 编号
    pub number: i64,
    /// 新的标签列表（替换所有现有标签）
    pub labels: Vec<String>,
}

pub(crate) async fn set_issue_labels(
    client: &CnbClient,
    input: SetIssueLabelsInput,
) -> Result<String, String> {
    let form = PutIssueLabelsForm {
        labels: Some(input.labels),
    };
    client
        .put_issue_labels(&input.repo, input.number, &form)
        .await
        .map(|v| serde_json::to_string(&v).unwrap_or_default())
        .map_err(api_err)
}

#[derive(Deserialize, JsonSchema)]
pub(crate) struct ClearIssueLabelsInput {
    /// 仓库路径
    pub repo: String,
    /// Issue 编号
    pub number: i64,
}

pub(crate) async fn clear_issue_labels(
    client: &CnbClient,
    input: ClearIssueLabelsInput,
) -> Result<String, String> {
    client
        .delete_issue_labels(&input.repo, input.number)
        .await
        .map(|()| "All labels cleared".to_string())
        .map_err(api_err)
}

#[derive(Deserialize, JsonSchema)]
pub(crate) struct RemoveIssueLabelInput {
    /// 仓库路径
    pub repo: String,
    /// Issue 编号
    pub number: i64,
    /// 要删除的标签名称
    pub label_name: String,
}

pub(crate) async fn remove_issue_label(
    client: &CnbClient,
    input: RemoveIssueLabelInput,
) -> Result<String, String> {
    client
        .delete_issue_label(&input.repo, input.number, &input.label_name)
        .await
        .map(|v| serde_json::to_string(&v).unwrap_or_default())
        .map_err(api_err)
}
