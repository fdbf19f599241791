use serde::{Deserialize, Serialize};

/// `PostPullRequestReviewReplyForm`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct PostPullRequestReviewReplyForm {
    /// 回复的评论内容。Reply comment content.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body: Option<String>,
    /// 父评论ID。Parent comment ID.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reply_to_comment_id: Option<String>,
    /// 工作模式标志。Work mode flag.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub work_mode: Option<bool>,
}

impl PostPullRequestReviewReplyForm {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["body", "reply_to_comment_id", "work_mode"];
}
