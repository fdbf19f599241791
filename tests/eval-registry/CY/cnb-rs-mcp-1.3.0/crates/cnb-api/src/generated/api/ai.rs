use crate::client::CnbClient;
use crate::error::ApiError;
use crate::generated::types::AiChatCompletionsReq;
use crate::generated::types::AiChatCompletionsResult;

impl CnbClient {
    /// AI 对话。AI chat completions.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn ai_chat_completions(
        &self,
        repo: &str,
        body: &AiChatCompletionsReq,
    ) -> Result<AiChatCompletionsResult, ApiError> {
        let url = format!("{}/{}/-/ai/chat/completions", self.base_url, repo);
        self.post_json(&url, body).await
    }
}
