use crate::client::CnbClient;
use crate::error::ApiError;
use crate::generated::types::GPGPublicKey;
use crate::generated::types::UpdateUserInfoPayload;
use crate::generated::types::UserEmails;
use crate::generated::types::UsersResult;
use serde::Serialize;

/// 查询用户资源列表。List user resources. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct AutoCompleteSourceParams {
    /// 来源类型。Source type.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_type: Option<String>,
    /// 分页页码。Pagination page number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    /// 分页页大小。Pagination page size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_size: Option<i64>,
    /// 按资源筛选。Filter by resources.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub search: Option<String>,
    /// 最小仓库权限，默认owner。Minima repository permissions
    #[serde(skip_serializing_if = "Option::is_none")]
    pub access: Option<String>,
    /// 排序字段。Order field.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub order_by: Option<String>,
    /// 排序顺序。Ordering.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub desc: Option<bool>,
}

/// 查询用户 GPG 密钥列表。List user GPG keys. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct ListGPGKeysParams {
    /// 分页页码。Pagination page number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    /// 分页页大小。Pagination page size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_size: Option<i64>,
    /// GPG 搜索关键字。GPG search key.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub keyword: Option<String>,
}

impl CnbClient {
    /// 获取用户详情。Get user details.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_user_info(&self) -> Result<UsersResult, ApiError> {
        let url = format!("{}/user", self.base_url);
        self.get(&url).await
    }

    /// 更新用户资料。Update user profile.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn update_user_info(&self, body: &UpdateUserInfoPayload) -> Result<(), ApiError> {
        let url = format!("{}/user", self.base_url);
        self.post_json::<serde_json::Value, _>(&url, body).await?;
        Ok(())
    }

    /// 查询用户资源列表。List user resources.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn auto_complete_source(
        &self,
        params: &AutoCompleteSourceParams,
    ) -> Result<Vec<String>, ApiError> {
        let url = format!("{}/user/autocomplete_source", self.base_url);
        self.get_with_query(&url, params).await
    }

    /// 获取邮箱列表。Get email list.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn list_email(&self) -> Result<UserEmails, ApiError> {
        let url = format!("{}/user/emails", self.base_url);
        self.get(&url).await
    }

    /// 查询用户 GPG 密钥列表。List user GPG keys.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn list_gpg_keys(
        &self,
        params: &ListGPGKeysParams,
    ) -> Result<GPGPublicKey, ApiError> {
        let url = format!("{}/user/gpg-keys", self.base_url);
        self.get_with_query(&url, params).await
    }

    /// 获取用户详情。Get user details.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_user_info_by_name(&self, username: &str) -> Result<UsersResult, ApiError> {
        let url = format!("{}/users/{}", self.base_url, username);
        self.get(&url).await
    }
}
