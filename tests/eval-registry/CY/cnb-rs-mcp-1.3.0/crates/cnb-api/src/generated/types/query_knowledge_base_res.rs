use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// 查询知识库的响应，包含检索分数、命中的文本分块内容与元数据。 Knowledge base query response, including search score, matched text chunk and metadata.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct QueryKnowledgeBaseRes {
    /// 命中的文本分块内容。Matched text chunk content.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chunk: Option<String>,
    /// 文本分块元数据。Text chunk metadata.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metadata: Option<HashMap<String, serde_json::Value>>,
    /// 检索匹配分数。Search match score.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
}

impl QueryKnowledgeBaseRes {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["chunk", "metadata", "score"];
}
