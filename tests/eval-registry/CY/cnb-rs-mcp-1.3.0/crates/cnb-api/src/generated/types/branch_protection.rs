use serde::{Deserialize, Serialize};

/// `BranchProtection`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct BranchProtection {
    /// 是否允许所有人创建保护分支。Whether all users can create protected branches.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allow_creation: Option<bool>,
    /// 是否允许所有人删除保护分支。Whether all users can delete protected branches.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allow_deletions: Option<bool>,
    /// 是否允许所有人强制推送。Whether all users can force push.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allow_force_pushes: Option<bool>,
    /// 是否仅允许仓库管理员及负责人创建保护分支。Only admins/owners can create protected branches.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allow_master_creation: Option<bool>,
    /// 是否仅允许仓库管理员及负责人删除保护分支。Only admins/owners can delete protected branches.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allow_master_deletions: Option<bool>,
    /// 是否仅允许仓库管理员及负责人强制推送。Whether only repo admins and owners can force push.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allow_master_force_pushes: Option<bool>,
    /// 是否允许仓库管理员及负责人手动合并到目标分支。Admins/owners can manually merge to target branch.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allow_master_manual_merge: Option<bool>,
    /// 是否仅允许仓库管理员及负责人推送代码到保护分支中。Only admins/owners can push to protected branches.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allow_master_pushes: Option<bool>,
    /// 是否允许所有人推送代码到保护分支中。Whether all users can push to protected branches.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allow_pushes: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forbid_approve_pull_created_by_own_npc: Option<bool>,
    /// 保护分支规则唯一标识符。Protected branch rule unique identifier.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// 需要的代码评审者数量。格式：`评审者数量 ∈ [1,5]`。Required reviewers count. `∈ [1,5]`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub required_approved_review_count: Option<i64>,
    /// 需要的评审通过率。格式：`通过率 ∈ [1, 100]`。Required approval rate. `∈ [1, 100]`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub required_approved_review_ratio: Option<i64>,
    /// 是否仅允许线性提交。Whether only linear commits are allowed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub required_linear_history: Option<bool>,
    /// 是否需至少一个仓库管理员批准。Whether at least one repo admin approval is required.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub required_master_approve: Option<bool>,
    /// 是否仅允许自动合并。Whether only auto-merge is allowed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub required_must_auto_merge: Option<bool>,
    /// 是否必须通过合并请求推送代码到此规则匹配分支中。Push must be via merge requests.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub required_must_push_via_pull_request: Option<bool>,
    /// 保护分支的合并请求是否需要代码评审。Code review required for merge requests.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub required_pull_request_reviews: Option<bool>,
    /// 是否需要通过状态检查。Whether status checks are required.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub required_status_checks: Option<bool>,
    /// 保护分支规则名称，支持通配符。Protected branch rule name. Supports wildcards.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
}

impl BranchProtection {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "allow_creation",
        "allow_deletions",
        "allow_force_pushes",
        "allow_master_creation",
        "allow_master_deletions",
        "allow_master_force_pushes",
        "allow_master_manual_merge",
        "allow_master_pushes",
        "allow_pushes",
        "forbid_approve_pull_created_by_own_npc",
        "id",
        "required_approved_review_count",
        "required_approved_review_ratio",
        "required_linear_history",
        "required_master_approve",
        "required_must_auto_merge",
        "required_must_push_via_pull_request",
        "required_pull_request_reviews",
        "required_status_checks",
        "rule",
    ];
}
