use crate::client::CnbClient;
use crate::error::ApiError;
use crate::generated::types::GetBadgeResult;
use crate::generated::types::ListBadgeResult;
use crate::generated::types::UploadBadgeReq;
use crate::generated::types::UploadBadgeResult;

impl CnbClient {
    /// 获取徽章数据。Get badge data.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_badge(
        &self,
        repo: &str,
        sha: &str,
        badge: &str,
    ) -> Result<GetBadgeResult, ApiError> {
        let url = format!("{}/{}/-/badge/git/{}/{}", self.base_url, repo, sha, badge);
        self.get(&url).await
    }

    /// 获取徽章列表。Get badge list.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn list_badge(&self, repo: &str) -> Result<ListBadgeResult, ApiError> {
        let url = format!("{}/{}/-/badge/list", self.base_url, repo);
        self.get(&url).await
    }

    /// 上传徽章数据。Upload badge data.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn upload_badge(
        &self,
        repo: &str,
        body: &UploadBadgeReq,
    ) -> Result<UploadBadgeResult, ApiError> {
        let url = format!("{}/{}/-/badge/upload", self.base_url, repo);
        self.post_json(&url, body).await
    }
}
