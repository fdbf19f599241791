use serde::{Deserialize, Serialize};

/// `DeletePullReviewersForm`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct DeletePullReviewersForm {
    /// 合并请求的评审人用户列表，最多支持8个。Merge request reviewer user list (max 8).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reviewers: Option<Vec<String>>,
}

impl DeletePullReviewersForm {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["reviewers"];
}
