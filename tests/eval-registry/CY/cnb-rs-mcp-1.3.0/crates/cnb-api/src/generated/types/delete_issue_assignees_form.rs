use serde::{Deserialize, Serialize};

/// `DeleteIssueAssigneesForm`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct DeleteIssueAssigneesForm {
    /// Issue处理人用户名列表，最大限制为8。示例：`["zhangsan", "lisi"]`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub assignees: Option<Vec<String>>,
}

impl DeleteIssueAssigneesForm {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["assignees"];
}
