use serde::{Deserialize, Serialize};

/// `PushLimitSettings`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct PushLimitSettings {
    /// 允许单次推送最多允许更新分支和标签的个数数量。Maximum number of branch and tag updates per single push.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allow_single_push_number: Option<i64>,
    /// 是否开启单次更新分支和标签的个数限制。Whether to limit the number of branch and tag updates per single push.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub check_single_push_number: Option<bool>,
    /// 强制要求提交必须有签名。Require commits to be signed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commit_must_be_signatured: Option<bool>,
    /// 是否仅允许负责人和管理员推送或删除标签、创建或删除版本。Only owners/admins can push/delete tags or releases.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub only_master_can_push_tag: Option<bool>,
    /// 推送提交到仓库，对提交作者和提交人进行检查。可选值：`any`,`registered`,`pusher`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub push_commit_must_be: Option<String>,
}

impl PushLimitSettings {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "allow_single_push_number",
        "check_single_push_number",
        "commit_must_be_signatured",
        "only_master_can_push_tag",
        "push_commit_must_be",
    ];
}
