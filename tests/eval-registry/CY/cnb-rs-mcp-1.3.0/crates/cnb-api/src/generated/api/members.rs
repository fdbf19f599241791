use crate::client::CnbClient;
use crate::error::ApiError;
use crate::generated::types::ListInheritMembers;
use crate::generated::types::MemberAccessLevel;
use crate::generated::types::MemberAccessLevelInSlugUnion;
use crate::generated::types::OutsideCollaboratorInRepo;
use crate::generated::types::UpdateMembersRequest;
use crate::generated::types::UsersWithAccessLevelInSlug;
use serde::Serialize;

/// 获取继承成员。List inherited members. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct ListInheritMembersOfGroupParams {
    /// 过滤成员。Filter by member
    #[serde(skip_serializing_if = "Option::is_none")]
    pub search: Option<String>,
    /// 角色。Role.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
    /// 分页页码。Pagination page number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    /// 分页页大小。Pagination page size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_size: Option<i64>,
}

/// 获取组织直接成员列表。List organization direct members. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct ListMembersOfGroupParams {
    /// 分页页码。Pagination page number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    /// 分页页大小。Pagination page size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_size: Option<i64>,
    /// 角色。Role.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
    /// 过滤成员。Filter by member.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub search: Option<String>,
}

/// 获取访问成员权限。Get access member permissions. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct GetMemberAccessLevelOfGroupParams {
    /// 是否包含继承的权限。If inherited permissions are included.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub include_inherit: Option<bool>,
}

/// 获取继承成员。List inherited members. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct ListInheritMembersOfRepoParams {
    /// 过滤成员。Filter by member
    #[serde(skip_serializing_if = "Option::is_none")]
    pub search: Option<String>,
    /// 角色。Role.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
    /// 分页页码。Pagination page number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    /// 分页页大小。Pagination page size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_size: Option<i64>,
}

/// 获取仓库直接成员列表。List repository direct members. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct ListMembersOfRepoParams {
    /// 分页页码。Pagination page number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    /// 分页页大小。Pagination page size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_size: Option<i64>,
    /// 角色。Role.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
    /// 过滤成员。Filter by member.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub search: Option<String>,
}

/// 获取成员访问权限。Get member access level. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct GetMemberAccessLevelOfRepoParams {
    /// 是否包含继承的权限。If inherited permissions are included.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub include_inherit: Option<bool>,
}

/// 获取仓库有效成员列表。List repository active members. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct ListAllMembersParams {
    /// 分页页码。Pagination page number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    /// 分页页大小。Pagination page size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_size: Option<i64>,
    /// 角色。Role.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
    /// 过滤成员。Filter by member
    #[serde(skip_serializing_if = "Option::is_none")]
    pub search: Option<String>,
    /// 精准匹配用户名,多个用户名用逗号间隔。Exact username matching, multiple usernames separated by commas.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub names: Option<String>,
    /// 排序字段。Order field.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub order_by: Option<String>,
    /// 排序顺序。Ordering.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub desc: Option<bool>,
}

/// 获取外部贡献者。List external contributors. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct ListOutsideCollaboratorsParams {
    /// 分页页码。Pagination page number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    /// 分页页大小。Pagination page size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_size: Option<i64>,
    /// 角色。Role.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
    /// 过滤成员。Filter by member.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub search: Option<String>,
}

/// 更新外部贡献者权限。Update contributor permission. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct UpdateOutsideCollaboratorsParams {
    /// 角色。Role.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
}

impl CnbClient {
    /// 获取继承成员。List inherited members.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn list_inherit_members_of_group(
        &self,
        group: &str,
        params: &ListInheritMembersOfGroupParams,
    ) -> Result<Vec<ListInheritMembers>, ApiError> {
        let url = format!("{}/{}/-/inherit-members", self.base_url, group);
        self.get_with_query(&url, params).await
    }

    /// 获取组织直接成员列表。List organization direct members.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn list_members_of_group(
        &self,
        group: &str,
        params: &ListMembersOfGroupParams,
    ) -> Result<Vec<UsersWithAccessLevelInSlug>, ApiError> {
        let url = format!("{}/{}/-/members", self.base_url, group);
        self.get_with_query(&url, params).await
    }

    /// 获取访问成员权限。Get access member permissions.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_member_access_level_of_group(
        &self,
        group: &str,
        params: &GetMemberAccessLevelOfGroupParams,
    ) -> Result<MemberAccessLevelInSlugUnion, ApiError> {
        let url = format!("{}/{}/-/members/access-level", self.base_url, group);
        self.get_with_query(&url, params).await
    }

    /// 更新组织成员权限。Update member permission.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn update_members_of_group(
        &self,
        group: &str,
        username: &str,
        body: &UpdateMembersRequest,
    ) -> Result<(), ApiError> {
        let url = format!("{}/{}/-/members/{}", self.base_url, group, username);
        self.put_json::<serde_json::Value, _>(&url, body).await?;
        Ok(())
    }

    /// 添加成员。Add members.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn add_members_of_group(
        &self,
        group: &str,
        username: &str,
        body: &UpdateMembersRequest,
    ) -> Result<(), ApiError> {
        let url = format!("{}/{}/-/members/{}", self.base_url, group, username);
        self.post_json::<serde_json::Value, _>(&url, body).await?;
        Ok(())
    }

    /// 移除组织直接成员。Remove organization direct member.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn delete_members_of_group(
        &self,
        group: &str,
        username: &str,
    ) -> Result<(), ApiError> {
        let url = format!("{}/{}/-/members/{}", self.base_url, group, username);
        self.delete(&url).await
    }

    /// 获取成员权限。Get member permissions.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn list_member_access_level_of_group(
        &self,
        group: &str,
        username: &str,
    ) -> Result<Vec<MemberAccessLevel>, ApiError> {
        let url = format!(
            "{}/{}/-/members/{}/access-level",
            self.base_url, group, username
        );
        self.get(&url).await
    }

    /// 添加成员。Add members.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn add_members_of_mission(
        &self,
        mission: &str,
        username: &str,
        body: &UpdateMembersRequest,
    ) -> Result<(), ApiError> {
        let url = format!("{}/{}/-/members/{}", self.base_url, mission, username);
        self.post_json::<serde_json::Value, _>(&url, body).await?;
        Ok(())
    }

    /// 添加成员。Add members.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn add_members_of_registry(
        &self,
        registry: &str,
        username: &str,
        body: &UpdateMembersRequest,
    ) -> Result<(), ApiError> {
        let url = format!("{}/{}/-/members/{}", self.base_url, registry, username);
        self.post_json::<serde_json::Value, _>(&url, body).await?;
        Ok(())
    }

    /// 获取继承成员。List inherited members.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn list_inherit_members_of_repo(
        &self,
        repo: &str,
        params: &ListInheritMembersOfRepoParams,
    ) -> Result<Vec<ListInheritMembers>, ApiError> {
        let url = format!("{}/{}/-/inherit-members", self.base_url, repo);
        self.get_with_query(&url, params).await
    }

    /// 获取仓库直接成员列表。List repository direct members.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn list_members_of_repo(
        &self,
        repo: &str,
        params: &ListMembersOfRepoParams,
    ) -> Result<Vec<UsersWithAccessLevelInSlug>, ApiError> {
        let url = format!("{}/{}/-/members", self.base_url, repo);
        self.get_with_query(&url, params).await
    }

    /// 获取成员访问权限。Get member access level.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_member_access_level_of_repo(
        &self,
        repo: &str,
        params: &GetMemberAccessLevelOfRepoParams,
    ) -> Result<MemberAccessLevelInSlugUnion, ApiError> {
        let url = format!("{}/{}/-/members/access-level", self.base_url, repo);
        self.get_with_query(&url, params).await
    }

    /// 更新仓库成员权限。Update repository member permission.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn update_members_of_repo(
        &self,
        repo: &str,
        username: &str,
        body: &UpdateMembersRequest,
    ) -> Result<(), ApiError> {
        let url = format!("{}/{}/-/members/{}", self.base_url, repo, username);
        self.put_json::<serde_json::Value, _>(&url, body).await?;
        Ok(())
    }

    /// 添加成员。Add members.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn add_members_of_repo(
        &self,
        repo: &str,
        username: &str,
        body: &UpdateMembersRequest,
    ) -> Result<(), ApiError> {
        let url = format!("{}/{}/-/members/{}", self.base_url, repo, username);
        self.post_json::<serde_json::Value, _>(&url, body).await?;
        Ok(())
    }

    /// 删除仓库成员。Remove repo member.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn delete_members_of_repo(&self, repo: &str, username: &str) -> Result<(), ApiError> {
        let url = format!("{}/{}/-/members/{}", self.base_url, repo, username);
        self.delete(&url).await
    }

    /// 获取仓库成员权限。Get repository member permission.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn list_member_access_level_of_repo(
        &self,
        repo: &str,
        username: &str,
    ) -> Result<Vec<MemberAccessLevel>, ApiError> {
        let url = format!(
            "{}/{}/-/members/{}/access-level",
            self.base_url, repo, username
        );
        self.get(&url).await
    }

    /// 获取仓库有效成员列表。List repository active members.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn list_all_members(
        &self,
        slug: &str,
        params: &ListAllMembersParams,
    ) -> Result<Vec<UsersWithAccessLevelInSlug>, ApiError> {
        let url = format!("{}/{}/-/list-members", self.base_url, slug);
        self.get_with_query(&url, params).await
    }

    /// 获取外部贡献者。List external contributors.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn list_outside_collaborators(
        &self,
        slug: &str,
        params: &ListOutsideCollaboratorsParams,
    ) -> Result<Vec<OutsideCollaboratorInRepo>, ApiError> {
        let url = format!("{}/{}/-/outside-collaborators", self.base_url, slug);
        self.get_with_query(&url, params).await
    }

    /// 更新外部贡献者权限。Update contributor permission.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn update_outside_collaborators(
        &self,
        slug: &str,
        username: &str,
        params: &UpdateOutsideCollaboratorsParams,
    ) -> Result<(), ApiError> {
        let url = format!(
            "{}/{}/-/outside-collaborators/{}",
            self.base_url, slug, username
        );
        let url = Self::append_query(url, params);
        self.put_json::<serde_json::Value, _>(
            &url,
            &serde_json::Value::Object(serde_json::Map::new()),
        )
        .await?;
        Ok(())
    }

    /// 删除外部贡献者。Remove external contributors.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn delete_outside_collaborators(
        &self,
        slug: &str,
        username: &str,
    ) -> Result<(), ApiError> {
        let url = format!(
            "{}/{}/-/outside-collaborators/{}",
            self.base_url, slug, username
        );
        self.delete(&url).await
    }
}
