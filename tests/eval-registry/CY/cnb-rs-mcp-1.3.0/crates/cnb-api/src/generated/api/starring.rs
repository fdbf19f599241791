use crate::client::CnbClient;
use crate::error::ApiError;
use crate::generated::types::RepoStarUsers;
use crate::generated::types::Repos4User;
use serde::Serialize;

/// 获取 Star 仓库列表。List starred repositories. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct GetUserAllStaredReposParams {
    /// 分页页码。Pagination page number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    /// 分页页大小。Pagination page size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_size: Option<i64>,
    /// 按仓库筛选。Filter by repositories.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub search: Option<String>,
    /// 仓库类型标记，逗号分隔。Repository type flags, comma separated
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flags: Option<String>,
    /// flags 多值匹配模式。Flags match mode when multiple flags provided
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flags_match: Option<String>,
    /// 仓库状态。Repository status
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    /// 排序顺序。Ordering.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub desc: Option<bool>,
    /// 排序字段。Order field.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub order_by: Option<String>,
}

/// 获取用户 Star 仓库。Get user starred repositories. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct GetUserStaredReposParams {
    /// 过滤仓库。Filter by repositories
    #[serde(skip_serializing_if = "Option::is_none")]
    pub search: Option<String>,
    /// 仓库类型标记，逗号分隔。Repository type flags, comma separated
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flags: Option<String>,
    /// flags 多值匹配模式。Flags match mode when multiple flags provided
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flags_match: Option<String>,
    /// 仓库状态。Repository status
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    /// 分页页码。Pagination page number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    /// 分页页大小。Pagination page size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_size: Option<i64>,
    /// 排序顺序。Ordering.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub desc: Option<bool>,
    /// 排序字段。Order field.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub order_by: Option<String>,
}

/// 获取仓库 Star 用户列表。Get repository star users. 的请求参数
///
/// MANUAL PATCH (P6)：`filter_type` 改 `Option<String>` → `String`，手写 `Default`
/// 默认 `"all"`。原因见 `crates/cnb-api/PATCHES.md` P6。
#[derive(Debug, Clone, Serialize)]
pub struct ListStarUsersParams {
    /// 筛选类型。Filter type.
    /// Filter type. **Server 必传**，不传报 errcode=3「`filter_type` 参数不合法」。
    /// MANUAL FIX (P6): 类型从 `Option<String>` 改为 `String`，默认值见 `Default::default`。
    pub filter_type: String,
    /// 页码。Page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    /// 页码。Page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_size: Option<i64>,
}

/// MANUAL PATCH (P6): 手写 `Default` 让 `filter_type` 默认为 `"all"`，
/// `ListStarUsersParams::default()` 即可直接传给 `list_star_users`。
impl Default for ListStarUsersParams {
    fn default() -> Self {
        Self {
            filter_type: "all".into(),
            page: None,
            page_size: None,
        }
    }
}

impl CnbClient {
    /// 获取 Star 仓库列表。List starred repositories.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_user_all_stared_repos(
        &self,
        params: &GetUserAllStaredReposParams,
    ) -> Result<Vec<Repos4User>, ApiError> {
        let url = format!("{}/user/stared-repos", self.base_url);
        self.get_with_query(&url, params).await
    }

    /// 获取用户 Star 仓库。Get user starred repositories.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_user_stared_repos(
        &self,
        username: &str,
        params: &GetUserStaredReposParams,
    ) -> Result<Vec<Repos4User>, ApiError> {
        let url = format!("{}/users/{}/stared-repos", self.base_url, username);
        self.get_with_query(&url, params).await
    }

    /// 获取仓库 Star 用户列表。Get repository star users.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn list_star_users(
        &self,
        slug: &str,
        params: &ListStarUsersParams,
    ) -> Result<RepoStarUsers, ApiError> {
        let url = format!("{}/{}/-/stars", self.base_url, slug);
        self.get_with_query(&url, params).await
    }
}
