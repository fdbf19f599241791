use super::PullReviewCommentCreationForm;
use serde::{Deserialize, Serialize};

/// `PullReviewCreationForm`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct PullReviewCreationForm {
    /// Review的评审意见内容。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body: Option<String>,
    /// 评审中的具体评论列表。Specific review comment list.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub comments: Option<Vec<PullReviewCommentCreationForm>>,
    /// Review事件类型.如：`approve`,`comment`,`request_changes`,`pending`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event: Option<String>,
    /// 工作模式标志。Work mode flag.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub work_mode: Option<bool>,
}

impl PullReviewCreationForm {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["body", "comments", "event", "work_mode"];
}
