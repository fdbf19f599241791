use super::BffApiSceneReaction;
use super::DiffLine;
use super::StatusesMap;
use super::UserInfo;
use serde::{Deserialize, Serialize};

/// `PullReviewComment`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct PullReviewComment {
    /// 评论的作者信息。Comment author info.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub author: Option<UserInfo>,
    /// 评论的具体内容。Comment specific content.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body: Option<String>,
    /// 评论所基于的提交哈希值。Commit hash the comment is based on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commit_hash: Option<String>,
    /// 评论的创建时间。Comment created at.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    /// 评论关联的差异块信息。Diff block associated with the comment.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diff_hunk: Option<Vec<DiffLine>>,
    /// 评论结束行号，`subject_type`=line时有效。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_line: Option<i64>,
    /// 评论结束位置的代码版本侧。枚举值：`left`,`right`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_side: Option<String>,
    /// 评论的唯一标识符。Comment unique identifier.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// 评论所在文件的路径。示例值：`src/main.go`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// Reaction 数量列表。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reactions: Option<Vec<BffApiSceneReaction>>,
    /// 回复的父评论ID，如果是回复评论则不为空。Parent comment ID. Non-empty if this is a reply.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reply_to_comment_id: Option<String>,
    /// 所属Review的唯一标识符。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub review_id: Option<String>,
    /// Review的状态。枚举值：`approved`,`changes_requested`,`commented`,`dismissed`,`pending`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub review_state: Option<String>,
    /// 评论起始行号，`subject_type`=line时有效。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_line: Option<i64>,
    /// 评论起始位置的代码版本侧。枚举值：`left`,`right`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_side: Option<String>,
    /// Statuses 该评审评论关联的状态，按分类分组（如 `npc`）。Statuses attached to the review comment, grouped by category (e.g. `npc`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub statuses: Option<StatusesMap>,
    /// 评论对象类型。枚举值：`line`,`file`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subject_type: Option<String>,
    /// 评论的最后更新时间。Comment last updated at.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_at: Option<String>,
}

impl PullReviewComment {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "author",
        "body",
        "commit_hash",
        "created_at",
        "diff_hunk",
        "end_line",
        "end_side",
        "id",
        "path",
        "reactions",
        "reply_to_comment_id",
        "review_id",
        "review_state",
        "start_line",
        "start_side",
        "statuses",
        "subject_type",
        "updated_at",
    ];
}
