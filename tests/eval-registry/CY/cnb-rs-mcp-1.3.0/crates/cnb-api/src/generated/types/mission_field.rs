use super::InteractionType;
use super::OperatorType;
use serde::{Deserialize, Serialize};

/// `MissionField`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct MissionField {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interaction_type: Option<InteractionType>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub operators: Option<Vec<OperatorType>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<Vec<serde_json::Value>>,
}

impl MissionField {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["interaction_type", "name", "operators", "value"];
}
