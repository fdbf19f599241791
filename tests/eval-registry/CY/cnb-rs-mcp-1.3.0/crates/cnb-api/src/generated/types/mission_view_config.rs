use super::MissionViewFieldConfig;
use super::MissionViewGroup;
use super::MissionViewSelector;
use super::MissionViewSort;
use super::MissionViewType;
use serde::{Deserialize, Serialize};

/// 任务集视图配置，包含视图标识、筛选/排序/分组条件与字段配置。 Mission view config, including view ID, selectors, sorts, group and field configuration.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct MissionViewConfig {
    /// 字段配置。Field configuration.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fields: Option<Vec<MissionViewFieldConfig>>,
    /// 分组信息。Group information.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group: Option<MissionViewGroup>,
    /// 视图唯一标识。View unique identifier.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// 筛选条件。Filter conditions.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selectors: Option<Vec<MissionViewSelector>>,
    /// 排序条件。Sort conditions.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sorts: Option<Vec<MissionViewSort>>,
    /// 视图类型。View type.
    #[serde(rename = "type")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub type_: Option<MissionViewType>,
}

impl MissionViewConfig {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["fields", "group", "id", "selectors", "sorts", "type"];
}
