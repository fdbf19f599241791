use crate::client::CnbClient;
use crate::error::ApiError;
use crate::generated::types::IDTokenRequest;
use crate::generated::types::IDTokenResponse;

impl CnbClient {
    /// 用 `cnb_token` 兑换 `id_token`, 仅允许流水线 token（oci 渠道）
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn exchange_oidc_id_token(
        &self,
        repo: &str,
        body: &IDTokenRequest,
    ) -> Result<IDTokenResponse, ApiError> {
        let url = format!("{}/{}/-/id_token", self.base_url, repo);
        self.post_json(&url, body).await
    }
}
