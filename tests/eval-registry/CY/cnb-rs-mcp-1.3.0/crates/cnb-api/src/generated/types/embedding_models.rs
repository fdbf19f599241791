use serde::{Deserialize, Serialize};

/// `EmbeddingModels`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct EmbeddingModels {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dimension: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

impl EmbeddingModels {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["dimension", "name"];
}
