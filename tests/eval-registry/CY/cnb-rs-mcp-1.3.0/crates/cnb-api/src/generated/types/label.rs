use serde::{Deserialize, Serialize};

/// Label
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Label {
    /// 标签颜色。Tag color.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub color: Option<String>,
    /// 标签描述。Tag description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// 标签ID。Tag ID.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// 标签名称。Tag name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

impl Label {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["color", "description", "id", "name"];
}
