use crate::client::CnbClient;
use crate::error::ApiError;
use crate::generated::types::RepoSecurityOverview;
use serde::Serialize;

/// 查询仓库安全概览。Get repository security overview. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct GetRepoSecurityOverviewParams {
    /// 类型:`code_sensitive`,`code_vulnerability`,`code_issue`,`code_license`;空=全部。Types: comma-sep;empty=all.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub types: Option<String>,
    /// 查询类型下开启或忽略的各风险类型概览数量,可选值：open,ignore,all，默认all。Risk status filter: open, ignore, all; default all.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab: Option<String>,
}

impl CnbClient {
    /// 查询仓库安全概览。Get repository security overview.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_repo_security_overview(
        &self,
        repo: &str,
        params: &GetRepoSecurityOverviewParams,
    ) -> Result<RepoSecurityOverview, ApiError> {
        let url = format!("{}/{}/-/security/overview", self.base_url, repo);
        self.get_with_query(&url, params).await
    }
}
