use super::MissionViewGroupCustom;
use super::MissionViewSortOrder;
use serde::{Deserialize, Serialize};

/// `MissionViewGroup`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct MissionViewGroup {
    #[serde(rename = "customOrders")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub custom_orders: Option<MissionViewGroupCustom>,
    #[serde(rename = "customVisible")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub custom_visible: Option<MissionViewGroupCustom>,
    #[serde(rename = "expendedList")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expended_list: Option<Vec<serde_json::Value>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub order: Option<MissionViewSortOrder>,
}

impl MissionViewGroup {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "customOrders",
        "customVisible",
        "expendedList",
        "field",
        "order",
    ];
}
