use super::DocumentStatistics;
use super::EmbeddingModels;
use super::KnowledgeBaseMetadata;
use serde::{Deserialize, Serialize};

/// `KnowledgeBaseInfoRes`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct KnowledgeBaseInfoRes {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub embedding_model: Option<EmbeddingModels>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exclude: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub include: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub issue_last_sync_time: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub issue_sync_enabled: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_commit_sha: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metadata: Option<KnowledgeBaseMetadata>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub statistics: Option<DocumentStatistics>,
}

impl KnowledgeBaseInfoRes {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "embedding_model",
        "exclude",
        "id",
        "include",
        "issue_last_sync_time",
        "issue_sync_enabled",
        "last_commit_sha",
        "metadata",
        "statistics",
    ];
}
