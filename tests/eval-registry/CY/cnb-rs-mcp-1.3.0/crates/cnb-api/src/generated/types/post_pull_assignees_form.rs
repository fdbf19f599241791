use serde::{Deserialize, Serialize};

/// `PostPullAssigneesForm`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct PostPullAssigneesForm {
    /// 合并请求的处理人用户列表，最多支持8个。Merge request assignee user list (max 8).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub assignees: Option<Vec<String>>,
}

impl PostPullAssigneesForm {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["assignees"];
}
