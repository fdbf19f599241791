use serde::{Deserialize, Serialize};

/// `PostIssueCommentForm`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct PostIssueCommentForm {
    /// Issue评论内容。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub work_mode: Option<bool>,
}

impl PostIssueCommentForm {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["body", "work_mode"];
}
