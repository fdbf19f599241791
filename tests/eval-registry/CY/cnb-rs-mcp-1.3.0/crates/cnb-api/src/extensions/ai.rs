use crate::client::CnbClient;
use crate::error::ApiError;
use crate::generated::types::AiChatCompletionsReq;

/// AI streaming extension trait
#[allow(async_fn_in_trait)]
pub trait CnbClientExt {
    /// 发送 AI Chat 流式请求。
    ///
    /// Returns raw `reqwest::Response` for SSE streaming.
    ///
    /// # Errors
    ///
    /// Returns [`ApiError`] if the request fails or the CNB API returns a non-success
    /// status.
    async fn ai_chat_stream(
        &self,
        repo: &str,
        req: &AiChatCompletionsReq,
    ) -> Result<reqwest::Response, ApiError>;

    /// 发送 AI Chat 非流式请求。
    ///
    /// # Errors
    ///
    /// Returns [`ApiError`] if the request fails or the CNB API returns a non-success
    /// status.
    async fn ai_chat(
        &self,
        repo: &str,
        req: &AiChatCompletionsReq,
    ) -> Result<crate::generated::types::AiChatCompletionsResult, ApiError>;
}

impl CnbClientExt for CnbClient {
    async fn ai_chat_stream(
        &self,
        repo: &str,
        req: &AiChatCompletionsReq,
    ) -> Result<reqwest::Response, ApiError> {
        let url = format!("{}{}/-/ai/chat/completions", self.base_url, repo);
        let resp = self.http.post(&url).json(req).send().await?;
        let status = resp.status().as_u16();
        if (200..300).contains(&status) {
            return Ok(resp);
        }
        Err(Self::map_error_status(status, resp).await)
    }

    async fn ai_chat(
        &self,
        repo: &str,
        req: &AiChatCompletionsReq,
    ) -> Result<crate::generated::types::AiChatCompletionsResult, ApiError> {
        self.ai_chat_completions(repo, req).await
    }
}
