use super::PropertyForm;
use serde::{Deserialize, Serialize};

/// `IssuePropertiesForm`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct IssuePropertiesForm {
    /// Issue自定义属性列表。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub properties: Option<Vec<PropertyForm>>,
}

impl IssuePropertiesForm {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["properties"];
}
