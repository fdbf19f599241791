use serde::{Deserialize, Serialize};

/// `PutTagAnnotation`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct PutTagAnnotation {
    /// 标签元数据的键名。Tag metadata key.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// 标签元数据的值。Tag metadata value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
}

impl PutTagAnnotation {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["key", "value"];
}
