use serde::{Deserialize, Serialize};

/// `PutCommitAnnotation`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct PutCommitAnnotation {
    /// 元数据键名。Metadata key.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// 元数据值。Metadata value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
}

impl PutCommitAnnotation {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["key", "value"];
}
