use crate::client::CnbClient;
use crate::error::ApiError;
use crate::generated::types::EmbeddingModel;
use crate::generated::types::KnowledgeBaseInfoRes;
use crate::generated::types::QueryKnowledgeBaseReq;
use crate::generated::types::QueryKnowledgeBaseRes;
use crate::generated::types::SearchNpcRes;
use serde::Serialize;

/// 搜索 NPC 角色。Search NPC characters. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct SearchNpcParams {
    /// 搜索关键词。Search keyword.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// 返回结果数量，最大20。Number of results to return, max 20.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub top_n: Option<i64>,
}

/// 查询知识库。Query knowledge base. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct QueryKnowledgeBaseGetParams {
    /// 查询语句。Query text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub query: Option<String>,
    /// 返回结果数量，默认 5。Number of results to return, default 5.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub top_k: Option<i64>,
    /// 分数阈值，默认 0。Score threshold, default 0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score_threshold: Option<f64>,
    /// 元数据过滤条件，JSON 字符串
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metadata_filtering_conditions: Option<String>,
}

impl CnbClient {
    /// 搜索 NPC 角色。Search NPC characters.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn search_npc(
        &self,
        params: &SearchNpcParams,
    ) -> Result<Vec<SearchNpcRes>, ApiError> {
        let url = format!("{}/search/npc", self.base_url);
        self.get_with_query(&url, params).await
    }

    /// 获取知识库信息。Get knowledge base info.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_knowledge_base_info(
        &self,
        repo: &str,
    ) -> Result<KnowledgeBaseInfoRes, ApiError> {
        let url = format!("{}/{}/-/knowledge/base", self.base_url, repo);
        self.get(&url).await
    }

    /// 删除知识库。Delete knowledge base.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn delete_knowledge_base(&self, repo: &str) -> Result<(), ApiError> {
        let url = format!("{}/{}/-/knowledge/base", self.base_url, repo);
        self.delete(&url).await
    }

    /// 查询知识库。Query knowledge base.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn query_knowledge_base_get(
        &self,
        repo: &str,
        params: &QueryKnowledgeBaseGetParams,
    ) -> Result<Vec<QueryKnowledgeBaseRes>, ApiError> {
        let url = format!("{}/{}/-/knowledge/base/query", self.base_url, repo);
        self.get_with_query(&url, params).await
    }

    /// 查询知识库（已废弃）。Query knowledge base (deprecated).
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn query_knowledge_base(
        &self,
        repo: &str,
        body: &QueryKnowledgeBaseReq,
    ) -> Result<Vec<QueryKnowledgeBaseRes>, ApiError> {
        let url = format!("{}/{}/-/knowledge/base/query", self.base_url, repo);
        self.post_json(&url, body).await
    }

    /// 获取 Embedding 模型。List embedding models.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_models(&self, repo: &str) -> Result<Vec<EmbeddingModel>, ApiError> {
        let url = format!("{}/{}/-/knowledge/embedding/models", self.base_url, repo);
        self.get(&url).await
    }
}
