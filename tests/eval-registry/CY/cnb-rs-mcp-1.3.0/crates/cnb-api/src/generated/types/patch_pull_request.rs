use serde::{Deserialize, Serialize};

/// `PatchPullRequest`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct PatchPullRequest {
    /// 合并请求的更新内容。Merge request updated description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body: Option<String>,
    /// 合并请求的更新状态。可选值：`open`,`closed`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    /// 合并请求的更新标题。Merge request updated title.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
}

impl PatchPullRequest {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["body", "state", "title"];
}
