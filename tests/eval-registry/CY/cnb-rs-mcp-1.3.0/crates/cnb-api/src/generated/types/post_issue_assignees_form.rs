use serde::{Deserialize, Serialize};

/// `PostIssueAssigneesForm`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct PostIssueAssigneesForm {
    /// Issue处理人用户名列表，最大限制为8。示例：`["zhangsan", "lisi"]`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub assignees: Option<Vec<String>>,
}

impl PostIssueAssigneesForm {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["assignees"];
}
