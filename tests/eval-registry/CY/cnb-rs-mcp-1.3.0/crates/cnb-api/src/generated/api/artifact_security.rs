use crate::client::CnbClient;
use crate::error::ApiError;
use crate::generated::types::OpenAPIArtifactOverview;
use serde::Serialize;

/// 查询制品安全概览。Get artifact security overview. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct GetArtifactSecurityOverviewParams {
    /// 文件名（pypi 类型建议传入；未传时以 `artifactID` 作为默认值）。File name (recommended for pypi; defaults to `artifactID` if omitted).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub filename: Option<String>,
    /// 类型: `artifact_vulnerability`,`artifact_license`,`artifact_sbom`，逗号分隔。容器制品不支持 sbom。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub types: Option<String>,
}

impl CnbClient {
    /// 查询制品安全概览。Get artifact security overview.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_artifact_security_overview(
        &self,
        slug: &str,
        type_: &str,
        name: &str,
        tag: &str,
        params: &GetArtifactSecurityOverviewParams,
    ) -> Result<OpenAPIArtifactOverview, ApiError> {
        let url = format!(
            "{}/{}/-/sca-artifact-scan/{}/{}/-/tag/{}/security/overview",
            self.base_url, slug, type_, name, tag
        );
        self.get_with_query(&url, params).await
    }
}
