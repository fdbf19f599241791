use super::AccessRole;
use super::Visibility;
use serde::{Deserialize, Serialize};

/// 用户的任务集查询接口返回值，包含任务集信息、完整路径与访问者相关信息。 User mission query response, including mission info, full path and visitor-specific info.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Missions4User {
    /// 访问者对该任务集的权限级别。Visitor's access level on the mission.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub access: Option<AccessRole>,
    /// 创建时间。Creation time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    /// 任务集描述。Mission description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// 是否冻结。Whether the mission is frozen.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub freeze: Option<bool>,
    /// 任务集唯一标识。Mission unique ID.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// 任务集名称。Mission name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// 任务集完整路径。Full mission path.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// 是否被访问者置顶。Whether pinned by the visitor.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pinned: Option<bool>,
    /// 置顶时间。Pin time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pinned_time: Option<String>,
    /// star 时间。Star time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub star_time: Option<String>,
    /// 访问者是否 star 了该任务集。Whether the visitor has starred the mission.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stared: Option<bool>,
    /// 更新时间。Update time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_at: Option<String>,
    /// 任务集可见性。Mission visibility level.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub visibility_level: Option<Visibility>,
}

impl Missions4User {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "access",
        "created_at",
        "description",
        "freeze",
        "id",
        "name",
        "path",
        "pinned",
        "pinned_time",
        "star_time",
        "stared",
        "updated_at",
        "visibility_level",
    ];
}
