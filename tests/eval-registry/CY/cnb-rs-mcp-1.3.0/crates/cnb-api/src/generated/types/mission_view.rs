use super::MissionViewType;
use serde::{Deserialize, Serialize};

/// 任务集视图，包含视图标识、名称与类型。 Mission view, including view ID, name and type.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct MissionView {
    /// 视图标识。View ID.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// 视图名称。View name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// 视图类型。View type.
    #[serde(rename = "type")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub type_: Option<MissionViewType>,
}

impl MissionView {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["id", "name", "type"];
}
