use serde::{Deserialize, Serialize};

/// `DeletePullAssigneesForm`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct DeletePullAssigneesForm {
    /// 合并请求的处理人用户列表。Merge request assignee user list.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub assignees: Option<Vec<String>>,
}

impl DeletePullAssigneesForm {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["assignees"];
}
