use serde::{Deserialize, Serialize};

/// `MissionFilter`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct MissionFilter {
    /// 属性名。Property name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// 筛选符。Filter operator.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub operator: Option<String>,
    /// 属性值。Property value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<Vec<String>>,
}

impl MissionFilter {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["field", "operator", "value"];
}
