use super::IssueConfig;
use super::ProcessingConfig;
use serde::{Deserialize, Serialize};

/// `KnowledgeBaseMetadata`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct KnowledgeBaseMetadata {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub issue: Option<IssueConfig>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub processing: Option<ProcessingConfig>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
}

impl KnowledgeBaseMetadata {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["issue", "processing", "version"];
}
