use super::MetadataFilteringConditions;
use serde::{Deserialize, Serialize};

/// `QueryKnowledgeBaseReq`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct QueryKnowledgeBaseReq {
    /// 元数据过滤条件。Metadata filtering conditions.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metadata_filtering_conditions: Option<MetadataFilteringConditions>,
    /// 查询语句。Query string.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub query: Option<String>,
    /// 分数阈值。Score threshold.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score_threshold: Option<f64>,
    /// 返回结果的数量。Number of results returned.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub top_k: Option<i64>,
}

impl QueryKnowledgeBaseReq {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "metadata_filtering_conditions",
        "query",
        "score_threshold",
        "top_k",
    ];
}
