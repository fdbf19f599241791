use super::MetadataCondition;
use serde::{Deserialize, Serialize};

/// `MetadataFilteringConditions`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct MetadataFilteringConditions {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conditions: Option<Vec<MetadataCondition>>,
    /// "and" 或 "or"，默认 "and"
    #[serde(skip_serializing_if = "Option::is_none")]
    pub logical_operator: Option<String>,
}

impl MetadataFilteringConditions {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["conditions", "logical_operator"];
}
