use serde::{Deserialize, Serialize};

/// `MergePullRequest`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct MergePullRequest {
    /// 合并提交的详细描述信息。Merge commit detailed description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commit_message: Option<String>,
    /// 合并提交的标题。Merge commit title.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commit_title: Option<String>,
    /// 是否强制合并。Whether to force merge, only allowed for repository owner or admin.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub force: Option<bool>,
    /// 合并提交方式。可选值：`merge`,`squash`,`rebase`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub merge_style: Option<String>,
}

impl MergePullRequest {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["commit_message", "commit_title", "force", "merge_style"];
}
