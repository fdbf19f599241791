use super::AccessRole;
use super::Users;
use super::Visibility;
use serde::{Deserialize, Serialize};

/// 用户的制品仓库查询接口返回值，包含制品库信息、完整路径与访问者相关信息。 User registry query response, including registry info, full path and visitor-specific info.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Registry4User {
    /// 访问者对该制品库的权限级别。Visitor's access level on the registry.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub access: Option<AccessRole>,
    /// 制品策略。Artifact policy.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub artifact_policy: Option<String>,
    /// 创建时间。Creation time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    /// 制品库描述。Registry description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// 是否冻结。Whether the registry is frozen.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub freeze: Option<bool>,
    /// 制品库唯一标识。Registry unique ID.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// 制品库类型。Registry kind.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// 最近推送时间。Last push time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_push_time: Option<String>,
    /// 最近推送用户。Last push user.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_push_user: Option<Users>,
    /// 制品库名称。Registry name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// 覆盖策略。Overwrite policy.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub overwrite_policy: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// 是否被访问者置顶。Whether pinned by the visitor.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pinned: Option<bool>,
    /// 置顶时间。Pin time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pinned_time: Option<String>,
    /// 包数量。Package count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pkg_count: Option<i64>,
    /// star 时间。Star time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub star_time: Option<String>,
    /// 访问者是否 star 了该制品库。Whether the visitor has starred the registry.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stared: Option<bool>,
    /// 更新时间。Update time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_at: Option<String>,
    /// 已用容量。Used size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub used_size: Option<i64>,
    /// 制品库可见性。Registry visibility level.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub visibility_level: Option<Visibility>,
}

impl Registry4User {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "access",
        "artifact_policy",
        "created_at",
        "description",
        "freeze",
        "id",
        "kind",
        "last_push_time",
        "last_push_user",
        "name",
        "overwrite_policy",
        "path",
        "pinned",
        "pinned_time",
        "pkg_count",
        "star_time",
        "stared",
        "updated_at",
        "used_size",
        "visibility_level",
    ];
}
