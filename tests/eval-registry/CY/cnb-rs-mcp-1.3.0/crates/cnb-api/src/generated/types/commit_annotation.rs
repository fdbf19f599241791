use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// `CommitAnnotation`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct CommitAnnotation {
    /// 元数据键名。Metadata key.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// 扩展元数据。 Extended metadata.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<HashMap<String, serde_json::Value>>,
    /// 元数据值。Metadata value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
}

impl CommitAnnotation {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["key", "meta", "value"];
}
