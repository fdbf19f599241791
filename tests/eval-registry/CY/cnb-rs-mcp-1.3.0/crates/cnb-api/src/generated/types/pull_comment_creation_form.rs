use serde::{Deserialize, Serialize};

/// `PullCommentCreationForm`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct PullCommentCreationForm {
    /// 评论内容。Comment content.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body: Option<String>,
    /// 工作模式标志。Work mode flag.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub work_mode: Option<bool>,
}

impl PullCommentCreationForm {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["body", "work_mode"];
}
