use crate::client::CnbClient;
use crate::error::ApiError;

impl CnbClient {
    /// 获取仓库动态内容。Get repository events content.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_events(&self, repo: &str, date: &str) -> Result<(), ApiError> {
        let url = format!("{}/events/{}/-/{}", self.base_url, repo, date);
        self.get::<serde_json::Value>(&url).await?;
        Ok(())
    }
}
