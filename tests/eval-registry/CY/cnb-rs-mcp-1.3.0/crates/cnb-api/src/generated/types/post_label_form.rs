use serde::{Deserialize, Serialize};

/// `PostLabelForm`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct PostLabelForm {
    /// 标签颜色。示例值: `ff0000`,`00ff00`,`0000ff`,`ffffff`。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub color: Option<String>,
    /// 标签描述信息。Tag description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// 标签名称。Tag name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

impl PostLabelForm {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["color", "description", "name"];
}
