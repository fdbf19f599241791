use crate::client::CnbClient;
use crate::error::ApiError;
use crate::generated::types::Repos4UserBase;
use serde::Serialize;

/// 搜索资源。Search resources. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct ListPublicReposParams {
    /// 键名。Key name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// 仓库类型标记，逗号分隔。Repository type flags, comma separated
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flags: Option<String>,
    /// flags 多值匹配模式。Flags match mode when multiple flags provided
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flags_match: Option<String>,
    /// 排序类型，默认`last_updated_at`. Sort type, defaults to `last_updated_at`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub order_by: Option<String>,
    /// 排序顺序。Sort order.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub desc: Option<bool>,
    /// 排行前N位，默认10，最大值100。Top N in ranking, default 10, max 100.
    #[serde(rename = "topN")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub top_n: Option<i64>,
}

impl CnbClient {
    /// 搜索资源。Search resources.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn list_public_repos(
        &self,
        params: &ListPublicReposParams,
    ) -> Result<Vec<Repos4UserBase>, ApiError> {
        let url = format!("{}/search/public-repos", self.base_url);
        self.get_with_query(&url, params).await
    }
}
