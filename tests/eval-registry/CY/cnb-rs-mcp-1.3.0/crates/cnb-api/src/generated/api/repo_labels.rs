use crate::client::CnbClient;
use crate::error::ApiError;
use crate::generated::types::Label;
use crate::generated::types::PatchLabelForm;
use crate::generated::types::PostLabelForm;
use serde::Serialize;

/// 查询仓库标签列表。List repository labels. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct ListLabelsParams {
    /// 分页页码。Page number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    /// 分页页大小。Page size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_size: Option<i64>,
    /// 标签搜索关键词，支持模糊匹配。Label search keyword, supports fuzzy matching.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub keyword: Option<String>,
}

impl CnbClient {
    /// 查询仓库标签列表。List repository labels.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn list_labels(
        &self,
        repo: &str,
        params: &ListLabelsParams,
    ) -> Result<Vec<Label>, ApiError> {
        let url = format!("{}/{}/-/labels", self.base_url, repo);
        self.get_with_query(&url, params).await
    }

    /// 创建仓库标签。Create repository label.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn post_label(&self, repo: &str, body: &PostLabelForm) -> Result<Label, ApiError> {
        let url = format!("{}/{}/-/labels", self.base_url, repo);
        self.post_json(&url, body).await
    }

    /// 删除仓库标签。Delete repository label.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn delete_label(&self, repo: &str, name: &str) -> Result<(), ApiError> {
        let url = format!("{}/{}/-/labels/{}", self.base_url, repo, name);
        self.delete(&url).await
    }

    /// 更新仓库标签。Update repository label.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn patch_label(
        &self,
        repo: &str,
        name: &str,
        body: &PatchLabelForm,
    ) -> Result<Label, ApiError> {
        let url = format!("{}/{}/-/labels/{}", self.base_url, repo, name);
        self.patch_json(&url, body).await
    }
}
