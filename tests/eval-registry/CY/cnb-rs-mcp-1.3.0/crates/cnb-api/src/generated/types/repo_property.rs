use serde::{Deserialize, Serialize};

/// `RepoProperty`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct RepoProperty {
    /// 自定义属性键名（唯一）。Custom property key (unique).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// 自定义属性显示名称。Custom property display name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// 自定义属性类型。枚举值：`string`,`date`,`number`
    #[serde(rename = "type")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub type_: Option<String>,
    /// 是否可见。Whether visible.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub visible: Option<bool>,
}

impl RepoProperty {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["key", "name", "type", "visible"];
}
