use serde::{Deserialize, Serialize};

/// `BadgeGroup`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct BadgeGroup {
    /// 徽章分组状态。Badge group status.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    /// 徽章分组类型。Badge group type.
    #[serde(rename = "type")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub type_: Option<String>,
    /// 徽章分组英文类型。Badge group English type.
    #[serde(rename = "typeEn")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub type_en: Option<String>,
}

impl BadgeGroup {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["status", "type", "typeEn"];
}
