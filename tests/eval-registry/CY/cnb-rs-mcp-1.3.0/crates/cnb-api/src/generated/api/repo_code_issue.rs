use crate::client::CnbClient;
use crate::error::ApiError;
use crate::generated::types::CodeIssueDetail;
use crate::generated::types::CodeIssueListData;
use serde::Serialize;

/// 查询代码扫描问题列表。List code scan issues. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct ListCodeIssueOpenAPIParams {
    /// 问题规则，用于筛选特定类型的问题。示例值：`critical-risk`, `LIC_CRITICAL`, `VUL_CRITICAL`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub issue_rule: Option<String>,
    /// 严重程度，用于筛选特定风险等级的问题。枚举值：`info`, `warning`, `error`, `fatal`, `all`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub risk_level: Option<String>,
    /// 分页页码。Page number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    /// 分页页大小。Page size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_size: Option<i64>,
}

impl CnbClient {
    /// 查询代码扫描问题列表。List code scan issues.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn list_code_issue_open_api(
        &self,
        slug: &str,
        params: &ListCodeIssueOpenAPIParams,
    ) -> Result<CodeIssueListData, ApiError> {
        let url = format!("{}/{}/-/code/issues", self.base_url, slug);
        self.get_with_query(&url, params).await
    }

    /// 获取代码扫描问题详情。Get code scan issue details.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_code_issue_detail_open_api(
        &self,
        slug: &str,
        record_id: i64,
    ) -> Result<CodeIssueDetail, ApiError> {
        let url = format!("{}/{}/-/code/issues/{}", self.base_url, slug, record_id);
        self.get(&url).await
    }
}
