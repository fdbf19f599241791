use serde::{Deserialize, Serialize};

/// 用户查询的完整组织信息，包含组织基本信息、子资源统计与置顶信息。 Full organization info for user queries, including org basic info, sub-resource counts and pin info.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct OrganizationUnion {
    /// 全部成员数。All member count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub all_member_count: Option<i64>,
    /// 下面所有层级子组织。All levels of sub-organizations.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub all_sub_group_count: Option<i64>,
    /// 下面所有层级子任务集。All levels of sub-missions.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub all_sub_mission_count: Option<i64>,
    /// 下面所有层级子制品库。All levels of sub-registries.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub all_sub_registry_count: Option<i64>,
    /// 下面所有层级子仓库。All levels of sub-repositories.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub all_sub_repo_count: Option<i64>,
    /// 创建时间。Creation time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    /// 组织描述。Organization description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// 组织域名。Organization domain.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub domain: Option<String>,
    /// 联系邮箱。Contact email.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    /// 关注数。Follow count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub follow_count: Option<i64>,
    /// 是否冻结。Whether the organization is frozen.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub freeze: Option<bool>,
    /// 是否有子组织。Whether there are sub-organizations.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub has_sub_group: Option<bool>,
    /// 组织唯一标识。Organization unique ID.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// 直接成员数。Direct member count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub member_count: Option<i64>,
    /// 组织名称。Organization name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// 组织路径。Organization path.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// 是否置顶。Whether pinned.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pinned: Option<bool>,
    /// 置顶时间。Pin time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pinned_time: Option<String>,
    /// README 仓库路径。README repo path.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub readme_repo_path: Option<String>,
    /// 组织备注。Organization remark.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remark: Option<String>,
    /// 组织主页。Organization site.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub site: Option<String>,
    /// 下一级子组织数量。Number of next-level sub-organizations.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sub_group_count: Option<i64>,
    /// 下一级子任务集数量。Number of next-level sub-missions.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sub_mission_count: Option<i64>,
    /// 下一级子制品库数量。Number of next-level sub-registries.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sub_registry_count: Option<i64>,
    /// 下一级子仓库。Number of next-level sub-repositories.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sub_repo_count: Option<i64>,
    /// 更新时间。Update time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_at: Option<String>,
    /// 微信公众号。`WeChat` MP.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wechat_mp: Option<String>,
}

impl OrganizationUnion {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "all_member_count",
        "all_sub_group_count",
        "all_sub_mission_count",
        "all_sub_registry_count",
        "all_sub_repo_count",
        "created_at",
        "description",
        "domain",
        "email",
        "follow_count",
        "freeze",
        "has_sub_group",
        "id",
        "member_count",
        "name",
        "path",
        "pinned",
        "pinned_time",
        "readme_repo_path",
        "remark",
        "site",
        "sub_group_count",
        "sub_mission_count",
        "sub_registry_count",
        "sub_repo_count",
        "updated_at",
        "wechat_mp",
    ];
}
