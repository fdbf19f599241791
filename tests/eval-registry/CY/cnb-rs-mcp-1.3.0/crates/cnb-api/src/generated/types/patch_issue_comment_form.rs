use serde::{Deserialize, Serialize};

/// `PatchIssueCommentForm`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct PatchIssueCommentForm {
    /// Issue评论内容。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body: Option<String>,
}

impl PatchIssueCommentForm {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["body"];
}
