use super::BffApiSceneReaction;
use super::StatusesMap;
use super::UserInfo;
use serde::{Deserialize, Serialize};

/// `PullRequestComment`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct PullRequestComment {
    /// 评论作者信息。Comment author info.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub author: Option<UserInfo>,
    /// 评论内容。Comment content.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body: Option<String>,
    /// 创建时间。Created at.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    /// 合并请求评论的唯一标识符。Merge request comment unique identifier.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Reaction 数量列表。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reactions: Option<Vec<BffApiSceneReaction>>,
    /// 该评论关联的状态，按分类分组（如 `npc`）。Statuses attached to the comment, grouped by category (e.g. `npc`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub statuses: Option<StatusesMap>,
    /// 最后更新时间。 Last updated at.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_at: Option<String>,
}

impl PullRequestComment {
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
