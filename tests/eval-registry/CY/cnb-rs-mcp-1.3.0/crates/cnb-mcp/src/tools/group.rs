use cnb_api::client::CnbClient;
use cnb_api::generated::api::organizations::{ListSubgroupsParams, ListTopGroupsParams};
use cnb_api::generated::types::CreateGroupReq;
use rmcp::schemars::JsonSchema;
use serde::Deserialize;

use crate::error::api_err;

#[derive(Deserialize, JsonSchema)]
pub(crate) struct ListGroupsInput {
    /// 页码
    pub page: Option<i64>,
    /// 每页条数
    pub page_size: Option<i64>,
    /// 搜索关键字
    pub search: Option<String>,
    /// 最小权限：Guest / Reporter / Developer / Master / Owner
    pub role: Option<String>,
}

pub(crate) async fn list_groups(
    client: &CnbClient,
    input: ListGroupsInput,
) -> Result<String, String> {
    let params = ListTopGroupsParams {
        page: input.page,
        page_size: input.page_size,
        search: input.search,
        role: input.role,
    };
    client
        .list_top_groups(&params)
        .await
        .map(|v| serde_json::to_string(&v).unwrap_or_default())
        .map_err(api_err)
}

#[derive(Deserialize, JsonSchema)]
pub(crate) struct ListSubGroupsInput {
    /// 组织路径
    pub group: String,
    /// 页码
    pub page: Option<i64>,
    /// 每页条数
    pub page_size: Option<i64>,
}

pub(crate) async fn list_sub_groups(
    client: &CnbClient,
    input: ListSubGroupsInput,
) -> Result<String, String> {
    let params = ListSubgroupsParams {
        page: input.page,
        page_size: input.page_size,
        ..Default::default()
    };
    client
        .list_subgroups(&input.group, &params)
        .await
        .map(|v| serde_json::to_string(&v).unwrap_or_default())
        .map_err(api_err)
}

#[derive(Deserialize, JsonSchema)]
pub(crate) struct GetGroupInput {
    /// 组织路径
    pub group: String,
}

pub(crate) async fn get_group(client: &CnbClient, input: GetGroupInput) -> Result<String, String> {
    client
        .get_group(&input.group)
        .await
        .map(|v| serde_json::to_string(&v).unwrap_or_default())
        .map_err(api_err)
}

#[derive(Deserialize, JsonSchema)]
pub(crate) struct CreateGroupInput {
    /// 组织路径
    pub path: String,
    /// 组织描述
    pub description: Option<String>,
    /// 备注
    pub remark: Option<String>,
    /// 根组织绑定的域名
    pub bind_domain: Option<String>,
}

pub(crate) async fn create_group(
    client: &CnbClient,
    input: CreateGroupInput,
) -> Result<String, String> {
    #[allow(clippy::needless_update)]
    let form = CreateGroupReq {
        path: Some(input.path),
        description: input.description,
        remark: input.remark,
        bind_domain: input.bind_domain,
        ..Default::default()
    };
    client
        .create_organization(&form)
        .await
        .map(|()| "Organization created".to_string())
        .map_err(api_err)
}
