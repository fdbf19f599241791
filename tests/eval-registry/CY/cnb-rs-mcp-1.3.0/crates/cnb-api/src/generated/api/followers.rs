use crate::client::CnbClient;
use crate::error::ApiError;
use crate::generated::types::UserFollowResult;
use serde::Serialize;

/// 获取粉丝列表。Get followers list. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct GetFollowersByUserIDParams {
    /// 分页页码。Pagination page number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    /// 分页页大小。Pagination page size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_size: Option<i64>,
}

/// 获取关注人列表。Get following list. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct GetFollowingByUserIDParams {
    /// 分页页码。Pagination page number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    /// 分页页大小。Pagination page size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_size: Option<i64>,
}

impl CnbClient {
    /// 获取粉丝列表。Get followers list.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_followers_by_user_id(
        &self,
        username: &str,
        params: &GetFollowersByUserIDParams,
    ) -> Result<Vec<UserFollowResult>, ApiError> {
        let url = format!("{}/users/{}/followers", self.base_url, username);
        self.get_with_query(&url, params).await
    }

    /// 获取关注人列表。Get following list.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_following_by_user_id(
        &self,
        username: &str,
        params: &GetFollowingByUserIDParams,
    ) -> Result<Vec<UserFollowResult>, ApiError> {
        let url = format!("{}/users/{}/following", self.base_url, username);
        self.get_with_query(&url, params).await
    }
}
