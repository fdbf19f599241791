use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// `TagAnnotation`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct TagAnnotation {
    /// 元数据键名。Metadata key.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// 元数据信息，用于记录标签元数据的更新操作信息，包括操作者、操作时间、平台来源等审计信息。Tag metadata audit info.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<HashMap<String, serde_json::Value>>,
    /// 元数据值。Metadata value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
}

impl TagAnnotation {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["key", "meta", "value"];
}
