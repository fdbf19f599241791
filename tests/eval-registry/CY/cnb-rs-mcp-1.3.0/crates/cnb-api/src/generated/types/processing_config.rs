use serde::{Deserialize, Serialize};

/// `ProcessingConfig`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct ProcessingConfig {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chunk_overlap: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chunk_size: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text_separator: Option<String>,
}

impl ProcessingConfig {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["chunk_overlap", "chunk_size", "text_separator"];
}
