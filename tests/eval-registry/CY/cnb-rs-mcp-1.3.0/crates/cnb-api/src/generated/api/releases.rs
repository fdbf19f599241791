use crate::client::CnbClient;
use crate::error::ApiError;
use crate::generated::types::PatchReleaseForm;
use crate::generated::types::PostReleaseAssetUploadURLForm;
use crate::generated::types::PostReleaseForm;
use crate::generated::types::Release;
use crate::generated::types::ReleaseAsset;
use crate::generated::types::ReleaseAssetUploadURL;
use serde::Serialize;

/// 查询版本列表。List releases. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct ListReleasesParams {
    /// 分页页码。Page number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    /// 分页页大小。Page size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_size: Option<i64>,
}

/// 下载 Release 附件。Download release attachments. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct GetReleasesAssetParams {
    /// 是否可下载;302跳转12h有效最多10次。Downloadable;302 valid 12h,max 10 downloads.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub share: Option<bool>,
}

/// 确认附件上传。Confirm asset upload. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct PostReleaseAssetUploadConfirmationParams {
    /// 附件保持的天数。0 表示永久，最大不能超过 180 天. Attachment retention days. 0 means permanent, max 180 days.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ttl: Option<i64>,
}

impl CnbClient {
    /// 查询版本列表。List releases.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn list_releases(
        &self,
        repo: &str,
        params: &ListReleasesParams,
    ) -> Result<Vec<Release>, ApiError> {
        let url = format!("{}/{}/-/releases", self.base_url, repo);
        self.get_with_query(&url, params).await
    }

    /// 创建版本。Create release.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn post_release(
        &self,
        repo: &str,
        body: &PostReleaseForm,
    ) -> Result<Release, ApiError> {
        let url = format!("{}/{}/-/releases", self.base_url, repo);
        self.post_json(&url, body).await
    }

    /// 下载 Release 附件。Download release attachments.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_releases_asset(
        &self,
        repo: &str,
        tag: &str,
        filename: &str,
        params: &GetReleasesAssetParams,
    ) -> Result<String, ApiError> {
        let url = format!(
            "{}/{}/-/releases/download/{}/{}",
            self.base_url, repo, tag, filename
        );
        let url = Self::append_query(url, params);
        self.get_text(&url).await
    }

    /// 获取最新版本。Get latest release.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_latest_release(&self, repo: &str) -> Result<Release, ApiError> {
        let url = format!("{}/{}/-/releases/latest", self.base_url, repo);
        self.get(&url).await
    }

    /// 根据标签获取版本。Get release by tag.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_release_by_tag(&self, repo: &str, tag: &str) -> Result<Release, ApiError> {
        let url = format!("{}/{}/-/releases/tags/{}", self.base_url, repo, tag);
        self.get(&url).await
    }

    /// 获取版本。Get release.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_release_by_id(
        &self,
        repo: &str,
        release_id: &str,
    ) -> Result<Release, ApiError> {
        let url = format!("{}/{}/-/releases/{}", self.base_url, repo, release_id);
        self.get(&url).await
    }

    /// 删除版本。Delete release.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn delete_release(&self, repo: &str, release_id: &str) -> Result<(), ApiError> {
        let url = format!("{}/{}/-/releases/{}", self.base_url, repo, release_id);
        self.delete(&url).await
    }

    /// 更新版本。Update release.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn patch_release(
        &self,
        repo: &str,
        release_id: &str,
        body: &PatchReleaseForm,
    ) -> Result<(), ApiError> {
        let url = format!("{}/{}/-/releases/{}", self.base_url, repo, release_id);
        self.patch_json::<serde_json::Value, _>(&url, body).await?;
        Ok(())
    }

    /// 确认附件上传。Confirm asset upload.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn post_release_asset_upload_confirmation(
        &self,
        repo: &str,
        release_id: &str,
        upload_token: &str,
        asset_path: &str,
        params: &PostReleaseAssetUploadConfirmationParams,
    ) -> Result<(), ApiError> {
        let url = format!(
            "{}/{}/-/releases/{}/asset-upload-confirmation/{}/{}",
            self.base_url, repo, release_id, upload_token, asset_path
        );
        let url = Self::append_query(url, params);
        self.post_json::<serde_json::Value, _>(
            &url,
            &serde_json::Value::Object(serde_json::Map::new()),
        )
        .await?;
        Ok(())
    }

    /// 获取附件上传地址。Get asset upload URL.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn post_release_asset_upload_url(
        &self,
        repo: &str,
        release_id: &str,
        body: &PostReleaseAssetUploadURLForm,
    ) -> Result<ReleaseAssetUploadURL, ApiError> {
        let url = format!(
            "{}/{}/-/releases/{}/asset-upload-url",
            self.base_url, repo, release_id
        );
        self.post_json(&url, body).await
    }

    /// 获取版本附件。Get release asset.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_release_asset(
        &self,
        repo: &str,
        release_id: &str,
        asset_id: &str,
    ) -> Result<ReleaseAsset, ApiError> {
        let url = format!(
            "{}/{}/-/releases/{}/assets/{}",
            self.base_url, repo, release_id, asset_id
        );
        self.get(&url).await
    }

    /// 删除版本附件。Delete release asset.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn delete_release_asset(
        &self,
        repo: &str,
        release_id: &str,
        asset_id: &str,
    ) -> Result<(), ApiError> {
        let url = format!(
            "{}/{}/-/releases/{}/assets/{}",
            self.base_url, repo, release_id, asset_id
        );
        self.delete(&url).await
    }
}
