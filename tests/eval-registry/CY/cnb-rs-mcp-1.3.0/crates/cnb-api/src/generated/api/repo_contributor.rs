use crate::client::CnbClient;
use crate::error::ApiError;
use crate::generated::types::RepoContribSimply;
use crate::generated::types::RepoContribTrend;
use serde::Serialize;

/// 查询贡献者缩略信息。Get contributor brief info. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct GetRepoContributorSimplyParams {
    /// 查询结果数量限制，当limit小于0时，默认为15。格式：[0,1000]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<i64>,
    /// 是否排除外部用户。示例值：`true`,`false`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exclude_external_users: Option<bool>,
    /// 按用户名或邮箱模糊搜索。Fuzzy search by username or email.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub keyword: Option<String>,
}

/// 查询贡献者趋势数据。Get contributor trend data. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct GetRepoContributorTrendParams {
    /// 查询结果数量限制，当limit小于0时，默认为15。格式：[0,100]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<i64>,
    /// 是否排除外部用户。示例值：`true`,`false`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exclude_external_users: Option<bool>,
}

impl CnbClient {
    /// 查询贡献者缩略信息。Get contributor brief info.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_repo_contributor_simply(
        &self,
        slug: &str,
        params: &GetRepoContributorSimplyParams,
    ) -> Result<RepoContribSimply, ApiError> {
        let url = format!("{}/{}/-/contributor/simply", self.base_url, slug);
        self.get_with_query(&url, params).await
    }

    /// 查询贡献者趋势数据。Get contributor trend data.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_repo_contributor_trend(
        &self,
        slug: &str,
        params: &GetRepoContributorTrendParams,
    ) -> Result<RepoContribTrend, ApiError> {
        let url = format!("{}/{}/-/contributor/trend", self.base_url, slug);
        self.get_with_query(&url, params).await
    }
}
