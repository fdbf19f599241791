use crate::client::CnbClient;
use crate::error::ApiError;
use crate::generated::types::CreateRepoReq;
use crate::generated::types::ListForks;
use crate::generated::types::RepoPatch;
use crate::generated::types::Repos4User;
use crate::generated::types::Repos4UserBase;
use crate::generated::types::TransferSlugReq;
use serde::Serialize;

/// 获取我的仓库。List my repositories. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct GetReposParams {
    /// 分页页码。Pagination page number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    /// 分页页大小。Pagination page size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_size: Option<i64>,
    /// 按仓库筛选。Filter by repositories.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub search: Option<String>,
    /// 仓库类型。Repository type.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub filter_type: Option<String>,
    /// 最小仓库权限，默认owner。Minima repository permissions
    #[serde(skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
    /// 仓库类型标记，逗号分隔。Repository type flags, comma separated
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flags: Option<String>,
    /// flags 多值匹配模式。Flags match mode when multiple flags provided
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flags_match: Option<String>,
    /// 仓库状态。Repository status
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    /// 排序字段。Order field.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub order_by: Option<String>,
    /// 排序顺序。Ordering.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub desc: Option<bool>,
}

/// 获取用户可见仓库。List user visible repositories. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct GetReposByUserNameParams {
    /// 按仓库筛选。Filter by repositories.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub search: Option<String>,
    /// 仓库类型。Repositories type.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub filter_type: Option<String>,
    /// 仓库类型标记，逗号分隔。Repository type flags, comma separated
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flags: Option<String>,
    /// flags 多值匹配模式。Flags match mode when multiple flags provided
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flags_match: Option<String>,
    /// 仓库状态。Repository status
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    /// 最小仓库权限，默认owner。Minima repository permissions.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
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

/// 获取仓库 Fork 列表。Get repository fork list. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct ListForksReposParams {
    /// 是否从fork根节点开始展示。Whether to start from the root node of the fork.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_from_root: Option<bool>,
    /// 页码。Pagination page number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    /// 每页大小。Pagination page size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_size: Option<i64>,
}

/// 查询组织可见仓库。List visible repos. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct GetGroupSubReposParams {
    /// 分页页码。Pagination page number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    /// 分页页大小。Pagination page size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_size: Option<i64>,
    /// 仓库类型。Repositories type.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub filter_type: Option<String>,
    /// 仓库类型标记，逗号分隔。Repository type flags, comma separated
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flags: Option<String>,
    /// flags 多值匹配模式。Flags match mode when multiple flags provided
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flags_match: Option<String>,
    /// 仓库状态。Repository status
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    /// 排序字段。Order field
    #[serde(skip_serializing_if = "Option::is_none")]
    pub order_by: Option<String>,
    /// 排序顺序。Ordering.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub desc: Option<bool>,
    /// 查全部/查询直接属于当前组织的仓库/查询子组织的仓库。Get all/Get repos belong to current org or sub-organization
    #[serde(skip_serializing_if = "Option::is_none")]
    pub descendant: Option<String>,
    /// 关键字。Key word.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub search: Option<String>,
}

impl CnbClient {
    /// 获取我的仓库。List my repositories.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_repos(&self, params: &GetReposParams) -> Result<Vec<Repos4User>, ApiError> {
        let url = format!("{}/user/repos", self.base_url);
        self.get_with_query(&url, params).await
    }

    /// 获取用户仓库墙。Get user pinned repositories.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_pinned_repo_by_id(&self, username: &str) -> Result<Vec<Repos4User>, ApiError> {
        let url = format!("{}/users/{}/pinned-repos", self.base_url, username);
        self.get(&url).await
    }

    /// 获取用户可见仓库。List user visible repositories.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_repos_by_user_name(
        &self,
        username: &str,
        params: &GetReposByUserNameParams,
    ) -> Result<Vec<Repos4User>, ApiError> {
        let url = format!("{}/users/{}/repos", self.base_url, username);
        self.get_with_query(&url, params).await
    }

    /// 获取仓库信息。Get repository info.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_by_id(&self, repo: &str) -> Result<Repos4User, ApiError> {
        let url = format!("{}/{}", self.base_url, repo);
        self.get(&url).await
    }

    /// 删除指定仓库。Delete the specified repository.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn delete_repo(&self, repo: &str) -> Result<(), ApiError> {
        let url = format!("{}/{}", self.base_url, repo);
        self.delete(&url).await
    }

    /// 更新仓库信息。Update repository information.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn update_repo(&self, repo: &str, body: &RepoPatch) -> Result<(), ApiError> {
        let url = format!("{}/{}", self.base_url, repo);
        self.patch_json::<serde_json::Value, _>(&url, body).await?;
        Ok(())
    }

    /// 获取仓库 Fork 列表。Get repository fork list.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn list_forks_repos(
        &self,
        repo: &str,
        params: &ListForksReposParams,
    ) -> Result<ListForks, ApiError> {
        let url = format!("{}/{}/-/forks", self.base_url, repo);
        self.get_with_query(&url, params).await
    }

    /// 转移仓库。Transfer a repository.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn transfer_repo(&self, repo: &str, body: &TransferSlugReq) -> Result<(), ApiError> {
        let url = format!("{}/{}/-/transfer", self.base_url, repo);
        self.post_json::<serde_json::Value, _>(&url, body).await?;
        Ok(())
    }

    /// 获取仓库墙列表。Get pinned repositories.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_pinned_repo_by_group(
        &self,
        slug: &str,
    ) -> Result<Vec<Repos4UserBase>, ApiError> {
        let url = format!("{}/{}/-/pinned-repos", self.base_url, slug);
        self.get(&url).await
    }

    /// 更新组织仓库墙。Update pinned repos.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn set_pinned_repo_by_group(
        &self,
        slug: &str,
        body: &Vec<String>,
    ) -> Result<Vec<Repos4UserBase>, ApiError> {
        let url = format!("{}/{}/-/pinned-repos", self.base_url, slug);
        self.put_json(&url, body).await
    }

    /// 查询组织可见仓库。List visible repos.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_group_sub_repos(
        &self,
        slug: &str,
        params: &GetGroupSubReposParams,
    ) -> Result<Vec<Repos4User>, ApiError> {
        let url = format!("{}/{}/-/repos", self.base_url, slug);
        self.get_with_query(&url, params).await
    }

    /// 创建仓库。Create repositories.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn create_repo(&self, slug: &str, body: &CreateRepoReq) -> Result<(), ApiError> {
        let url = format!("{}/{}/-/repos", self.base_url, slug);
        self.post_json::<serde_json::Value, _>(&url, body).await?;
        Ok(())
    }

    /// 归档仓库。Archive repository.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn archive_repo(&self, slug: &str) -> Result<(), ApiError> {
        let url = format!("{}/{}/-/settings/archive", self.base_url, slug);
        self.post_json::<serde_json::Value, _>(
            &url,
            &serde_json::Value::Object(serde_json::Map::new()),
        )
        .await?;
        Ok(())
    }

    /// 解除归档。Unarchive repository.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn un_archive_repo(&self, slug: &str) -> Result<(), ApiError> {
        let url = format!("{}/{}/-/settings/unarchive", self.base_url, slug);
        self.post_json::<serde_json::Value, _>(
            &url,
            &serde_json::Value::Object(serde_json::Map::new()),
        )
        .await?;
        Ok(())
    }
}
