use super::BadgeGroup;
use serde::{Deserialize, Serialize};

/// Badge
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Badge {
    /// 徽章描述。Badge description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub desc: Option<String>,
    /// 徽章分组。Badge group.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group: Option<BadgeGroup>,
    /// 徽章链接。Badge link.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub link: Option<String>,
    /// 徽章名称。Badge name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// 徽章类型。Badge type.
    #[serde(rename = "type")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub type_: Option<String>,
    /// 徽章URL。Badge URL.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
}

impl Badge {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["desc", "group", "link", "name", "type", "url"];
}
