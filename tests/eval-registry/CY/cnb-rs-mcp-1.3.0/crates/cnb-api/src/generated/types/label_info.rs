use super::UserInfo;
use serde::{Deserialize, Serialize};

/// `LabelInfo`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct LabelInfo {
    /// 贴标者信息。Tagger information.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub applied_by: Option<UserInfo>,
    /// 标签颜色。Tag color.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub color: Option<String>,
    /// 标签创建者信息。Tag creator information.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub creator: Option<UserInfo>,
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

impl LabelInfo {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "applied_by",
        "color",
        "creator",
        "description",
        "id",
        "name",
    ];
}
