use super::MissionViewSortOrder;
use serde::{Deserialize, Serialize};

/// `MissionViewSort`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct MissionViewSort {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub order: Option<MissionViewSortOrder>,
}

impl MissionViewSort {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["field", "order"];
}
