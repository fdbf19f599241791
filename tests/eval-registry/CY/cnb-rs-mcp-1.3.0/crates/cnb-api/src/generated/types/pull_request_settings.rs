use serde::{Deserialize, Serialize};

/// `PullRequestSettings`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct PullRequestSettings {
    /// 是否允许直接提交合并。Whether direct commit merge is allowed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allow_merge_commit_merge: Option<bool>,
    /// 是否允许变基合并。 Whether rebase merge is allowed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allow_rebase_merge: Option<bool>,
    /// 是否允许压缩合并。 Whether squash merge is allowed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allow_squash_merge: Option<bool>,
    /// 是否允许自动添加仓库管理员为评审者。Whether to automatically add repo admins as reviewers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub master_auto_as_reviewer: Option<bool>,
    /// 直接提交合并操作时默认生成的提交信息内容。可选值：`default`,`pull_request_title`,`pull_request_title_with_body`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub merge_commit_message_style: Option<String>,
    /// 压缩合并操作时默认生成的提交信息内容。可选值：`default`,`pull_request_title`,`pull_request_title_with_body`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub squash_commit_message_style: Option<String>,
}

impl PullRequestSettings {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "allow_merge_commit_merge",
        "allow_rebase_merge",
        "allow_squash_merge",
        "master_auto_as_reviewer",
        "merge_commit_message_style",
        "squash_commit_message_style",
    ];
}
