use crate::client::CnbClient;
use crate::error::ApiError;
use crate::generated::types::BranchProtection;
use crate::generated::types::CreateGroupReq;
use crate::generated::types::GroupSettingReq;
use crate::generated::types::OrganizationAccess;
use crate::generated::types::OrganizationSettingWithParent;
use crate::generated::types::OrganizationUnion;
use crate::generated::types::TransferSlugReq;
use crate::generated::types::UpdateGroupReq;
use crate::generated::types::UploadAssetsResponse;
use crate::generated::types::UploadRequestParams;
use serde::Serialize;

/// 获取顶层组织列表。Get top-level organizations. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct ListTopGroupsParams {
    /// 分页页码。Pagination page number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    /// 分页页大小。Pagination page size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_size: Option<i64>,
    /// 按组织筛选。Filter by organizations.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub search: Option<String>,
    /// 按角色筛选。Filter by role.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
}

/// 查询子组织列表。Get sub-organizations. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct ListGroupsParams {
    /// 分页页码。Pagination page number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    /// 分页页大小。Pagination page size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_size: Option<i64>,
    /// 访问权限级别。Access level.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub access: Option<i64>,
}

/// 获取用户顶层组织。Get user top-level organizations. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct GetGroupsByUserIDParams {
    /// 按组织筛选。Filter organizations.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub search: Option<String>,
    /// 分页页码。Pagination page number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    /// 分页页大小。Pagination page size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_size: Option<i64>,
}

/// 获取子组织列表。Get sub-organizations. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct ListSubgroupsParams {
    /// 按组织筛选。Filter organization.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub search: Option<String>,
    /// 分页页码。Pagination page number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    /// 分页页大小。Pagination page size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_size: Option<i64>,
}

impl CnbClient {
    /// 创建组织。Create organization.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn create_organization(&self, body: &CreateGroupReq) -> Result<(), ApiError> {
        let url = format!("{}/groups", self.base_url);
        self.post_json::<serde_json::Value, _>(&url, body).await?;
        Ok(())
    }

    /// 获取顶层组织列表。Get top-level organizations.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn list_top_groups(
        &self,
        params: &ListTopGroupsParams,
    ) -> Result<Vec<OrganizationAccess>, ApiError> {
        let url = format!("{}/user/groups", self.base_url);
        self.get_with_query(&url, params).await
    }

    /// 查询子组织列表。Get sub-organizations.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn list_groups(
        &self,
        slug: &str,
        params: &ListGroupsParams,
    ) -> Result<Vec<OrganizationAccess>, ApiError> {
        let url = format!("{}/user/groups/{}", self.base_url, slug);
        self.get_with_query(&url, params).await
    }

    /// 获取用户顶层组织。Get user top-level organizations.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    /// MANUAL FIX (P15)：swagger 把 200 声明为单个 OrganizationUnion，实际响应是数组
    pub async fn get_groups_by_user_id(
        &self,
        username: &str,
        params: &GetGroupsByUserIDParams,
    ) -> Result<Vec<OrganizationUnion>, ApiError> {
        let url = format!("{}/users/{}/groups", self.base_url, username);
        self.get_with_query(&url, params).await
    }

    /// 获取组织信息。Get organization info.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_group(&self, group: &str) -> Result<OrganizationAccess, ApiError> {
        let url = format!("{}/{}", self.base_url, group);
        self.get(&url).await
    }

    /// 更新组织信息。Update organization information.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn update_organization(
        &self,
        group: &str,
        body: &UpdateGroupReq,
    ) -> Result<(), ApiError> {
        let url = format!("{}/{}", self.base_url, group);
        self.put_json::<serde_json::Value, _>(&url, body).await?;
        Ok(())
    }

    /// 删除组织。Delete organization.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn delete_organization(&self, group: &str) -> Result<(), ApiError> {
        let url = format!("{}/{}", self.base_url, group);
        self.delete(&url).await
    }

    /// 查询根组织保护分支规则列表。List group branch protection rules.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn list_group_branch_protections(
        &self,
        group: &str,
    ) -> Result<Vec<BranchProtection>, ApiError> {
        let url = format!(
            "{}/{}/-/git-group-settings/branch-protections",
            self.base_url, group
        );
        self.get(&url).await
    }

    /// 获取根组织保护分支规则。Get group branch protection rule.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_group_branch_protection(
        &self,
        group: &str,
        id: &str,
    ) -> Result<BranchProtection, ApiError> {
        let url = format!(
            "{}/{}/-/git-group-settings/branch-protections/{}",
            self.base_url, group, id
        );
        self.get(&url).await
    }

    /// 转移组织。Transfer an organization.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn transfer_group(
        &self,
        group: &str,
        body: &TransferSlugReq,
    ) -> Result<(), ApiError> {
        let url = format!("{}/{}/-/transfer", self.base_url, group);
        self.post_json::<serde_json::Value, _>(&url, body).await?;
        Ok(())
    }

    /// 上传 Logo。Upload logo.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn upload_logos(
        &self,
        group: &str,
        body: &UploadRequestParams,
    ) -> Result<UploadAssetsResponse, ApiError> {
        let url = format!("{}/{}/-/upload/logos", self.base_url, group);
        self.post_json(&url, body).await
    }

    /// 获取组织配置。Get organization settings.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_group_setting(
        &self,
        slug: &str,
    ) -> Result<OrganizationSettingWithParent, ApiError> {
        let url = format!("{}/{}/-/settings", self.base_url, slug);
        self.get(&url).await
    }

    /// 更新组织配置。Update organization configuration.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn update_group_setting(
        &self,
        slug: &str,
        body: &GroupSettingReq,
    ) -> Result<(), ApiError> {
        let url = format!("{}/{}/-/settings", self.base_url, slug);
        self.put_json::<serde_json::Value, _>(&url, body).await?;
        Ok(())
    }

    /// 获取子组织列表。Get sub-organizations.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn list_subgroups(
        &self,
        slug: &str,
        params: &ListSubgroupsParams,
    ) -> Result<Vec<OrganizationUnion>, ApiError> {
        let url = format!("{}/{}/-/sub-groups", self.base_url, slug);
        self.get_with_query(&url, params).await
    }
}
