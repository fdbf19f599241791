use serde::{Deserialize, Serialize};

/// `PutIssueLabelsForm`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct PutIssueLabelsForm {
    /// Issue标签列表，最大限制为10。示例：`["标签1","标签2"]`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub labels: Option<Vec<String>>,
}

impl PutIssueLabelsForm {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["labels"];
}
