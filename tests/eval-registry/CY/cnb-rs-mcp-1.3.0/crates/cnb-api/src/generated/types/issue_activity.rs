use super::UserInfo;
use serde::{Deserialize, Serialize};

/// `IssueActivity`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct IssueActivity {
    /// 动态发起人。Activity initiator.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub actor: Option<UserInfo>,
    /// 动态发起人的仓库访问角色。Activity initiator repo access role.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub actor_access_role: Option<String>,
    /// 创建时间。Created at.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    /// 动态唯一标识。Activity unique identifier.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// 动态详细内容。Activity detailed content.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub payload: Option<serde_json::Value>,
    /// 提交时间。Commit time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub submitted_at: Option<String>,
    /// 动态类型。Activity type.
    #[serde(rename = "type")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub type_: Option<String>,
}

impl IssueActivity {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "actor",
        "actor_access_role",
        "created_at",
        "id",
        "payload",
        "submitted_at",
        "type",
    ];
}
