use crate::client::CnbClient;
use crate::error::ApiError;
use crate::generated::types::RepoVolume;
use crate::generated::types::SpecialAmount;
use crate::generated::types::VolumeQuotaResp;
use crate::generated::types::VolumeUsedResp;
use serde::Serialize;

/// 获取组织仓库用量。Get organization repository usage. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct GetReposVolumeParams {
    /// 资源类型. Resource type.
    #[serde(rename = "type")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub type_: Option<String>,
    /// 页码. Page number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    /// 每页数量. Number of items per page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_size: Option<i64>,
}

/// 获取组织资源用量。Get organization resource usage. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct GetVolumeParams {
    /// 月份，默认是当前月份. Month, defaults to current month.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub month: Option<String>,
}

impl CnbClient {
    /// 获取组织月度额度。Get organization monthly quotas.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_quota(&self, slug: &str) -> Result<VolumeQuotaResp, ApiError> {
        let url = format!("{}/{}/-/charge/quota", self.base_url, slug);
        self.get(&url).await
    }

    /// 获取组织仓库用量。Get organization repository usage.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_repos_volume(
        &self,
        slug: &str,
        params: &GetReposVolumeParams,
    ) -> Result<Vec<RepoVolume>, ApiError> {
        let url = format!("{}/{}/-/charge/repos-volume", self.base_url, slug);
        self.get_with_query(&url, params).await
    }

    /// 查看特权额度。View privilege quotas.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_special_amount(&self, slug: &str) -> Result<SpecialAmount, ApiError> {
        let url = format!("{}/{}/-/charge/special-amount", self.base_url, slug);
        self.get(&url).await
    }

    /// 获取组织资源用量。Get organization resource usage.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_volume(
        &self,
        slug: &str,
        params: &GetVolumeParams,
    ) -> Result<VolumeUsedResp, ApiError> {
        let url = format!("{}/{}/-/charge/volume", self.base_url, slug);
        self.get_with_query(&url, params).await
    }
}
