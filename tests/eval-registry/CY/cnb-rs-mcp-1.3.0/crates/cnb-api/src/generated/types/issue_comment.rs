use super::StatusesMap;
use super::UserInfo;
use super::VcsBffApiSceneReaction;
use serde::{Deserialize, Serialize};

/// `IssueComment`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct IssueComment {
    /// 发表评论的用户信息。Comment author user information.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub author: Option<UserInfo>,
    /// 评论的内容。Comment content.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body: Option<String>,
    /// 评论的创建时间。Comment created at.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    /// 评论的唯一标识符。Comment unique identifier.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Reaction 数量列表。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reactions: Option<Vec<VcsBffApiSceneReaction>>,
    /// 该评论关联的状态，按分类分组（如 `npc`）。Statuses attached to the comment, grouped by category (e.g. `npc`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub statuses: Option<StatusesMap>,
    /// 评论的更新时间。Comment updated at.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_at: Option<String>,
}

impl IssueComment {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "author",
        "body",
        "created_at",
        "id",
        "reactions",
        "statuses",
        "updated_at",
    ];
}
