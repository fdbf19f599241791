use serde::{Deserialize, Serialize};

/// `PropertyForm`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct PropertyForm {
    /// Issue自定义属性键名。Custom property key.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// Issue自定义属性值。Custom property value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
}

impl PropertyForm {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["key", "value"];
}
