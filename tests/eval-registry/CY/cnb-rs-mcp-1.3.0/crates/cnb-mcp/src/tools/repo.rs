use cnb_api::client::CnbClient;
use cnb_api::generated::api::repositories::{GetGroupSubReposParams, GetReposParams};
use cnb_api::generated::types::CreateRepoReq;
use rmcp::schemars::JsonSchema;
use serde::Deserialize;

use crate::error::api_err;

#[derive(Deserialize, JsonSchema)]
pub(crate) struct ListRepositoriesInput {
    /// 页码
    pub page: Option<i64>,
    /// 每页条数
    pub page_size: Option<i64>,
    /// 搜索关键字
    pub search: Option<String>,
    /// 仓库类型：private / public / secret
    pub filter_type: Option<String>,
    /// 最小权限：Reporter / Developer / Master / Owner
    pub role: Option<String>,
    /// 排序：`created_at` / `last_updated_at` / stars
    pub order_by: Option<String>,
    /// 是否倒序
    pub desc: Option<bool>,
}

pub(crate) async fn list_repositories(
    client: &CnbClient,
    input: ListRepositoriesInput,
) -> Result<String, String> {
    let params = GetReposParams {
        page: input.page,
        page_size: input.page_size,
        search: input.search,
        filter_type: input.filter_type,
        role: input.role,
        order_by: input.order_by,
        desc: input.desc,
        ..Default::default()
    };
    client
        .get_repos(&params)
        .await
        .map(|v| serde_json::to_string(&v).unwrap_or_default())
        .map_err(api_err)
}

#[derive(Deserialize, JsonSchema)]
pub(crate) struct ListGroupRepositoriesInput {
    /// 组织路径
    pub group: String,
    /// 页码
    pub page: Option<i64>,
    /// 每页条数
    pub page_size: Option<i64>,
    /// 搜索关键字
    pub search: Option<String>,
    /// 仓库类型：private / public / secret
    pub filter_type: Option<String>,
    /// 查询范围：all / sub / grand
    pub descendant: Option<String>,
    /// 排序
    pub order_by: Option<String>,
    /// 是否倒序
    pub desc: Option<bool>,
}

pub(crate) async fn list_group_repositories(
    client: &CnbClient,
    input: ListGroupRepositoriesInput,
) -> Result<String, String> {
    let params = GetGroupSubReposParams {
        page: input.page,
        page_size: input.page_size,
        search: input.search,
        filter_type: input.filter_type,
        descendant: input.descendant,
        order_by: input.order_by,
        desc: input.desc,
        ..Default::default()
    };
    client
        .get_group_sub_repos(&input.group, &params)
        .await
        .map(|v| serde_json::to_string(&v).unwrap_or_default())
        .map_err(api_err)
}

#[derive(Deserialize, JsonSchema)]
pub(crate) struct GetCurrentRepositoryInput {
    /// 远程仓库 URL，需要先执行 `git remote get-url origin` 获取
    pub remote_url: String,
}

pub(crate) async fn get_current_repository(
    client: &CnbClient,
    input: GetCurrentRepositoryInput,
) -> Result<String, String> {
    let repo_path = parse_repo_from_url(&input.remote_url)
        .ok_or_else(|| format!("无法从 URL 解析仓库路径：{}", input.remote_url))?;
    client
        .get_by_id(&repo_path)
        .await
        .map(|v| serde_json::to_string(&v).unwrap_or_default())
        .map_err(api_err)
}

#[derive(Deserialize, JsonSchema)]
pub(crate) struct GetRepositoryInput {
    /// 仓库路径
    pub repo: String,
}

pub(crate) async fn get_repository(
    client: &CnbClient,
    input: GetRepositoryInput,
) -> Result<String, String> {
    client
        .get_by_id(&input.repo)
        .await
        .map(|v| serde_json::to_string(&v).unwrap_or_default())
        .map_err(api_err)
}

#[derive(Deserialize, JsonSchema)]
pub(crate) struct CreateRepositoryInput {
    /// 仓库名称
    pub name: String,
    /// 所属组织路径（不填则创建在个人空间）
    pub group: Option<String>,
    /// 仓库描述
    pub description: Option<String>,
    /// 可见性：public / private / secret
    pub visibility: Option<String>,
}

pub(crate) async fn create_repository(
    client: &CnbClient,
    input: CreateRepositoryInput,
) -> Result<String, String> {
    let group = input.group.unwrap_or_default();
    #[allow(clippy::needless_update)]
    let form = CreateRepoReq {
        name: Some(input.name),
        description: input.description,
        visibility: input.visibility,
        ..Default::default()
    };
    client
        .create_repo(&group, &form)
        .await
        .map(|()| "Repository created".to_string())
        .map_err(api_err)
}

fn parse_repo_from_url(url: &str) -> Option<String> {
    let url = url.trim();
    let path = if let Some(stripped) = url.strip_prefix("https://") {
        stripped.split_once('/')?.1
    } else {
        let stripped = url.strip_prefix("git@")?;
        stripped.split_once(':')?.1
    };
    let path = path.strip_suffix(".git").unwrap_or(path);
    if path.is_empty() {
        None
    } else {
        Some(path.to_string())
    }
}
