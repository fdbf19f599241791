use super::Label;
use super::RepoInfo;
use super::UserInfo;
use serde::{Deserialize, Serialize};

/// `UserIssue`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct UserIssue {
    /// Issue处理人列表，最多支持8个处理人。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub assignees: Option<Vec<UserInfo>>,
    /// Issue创建者信息。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub author: Option<UserInfo>,
    /// Issue关闭时间。Issue closed time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub closed_at: Option<String>,
    /// Issue评论数量。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub comment_count: Option<i64>,
    /// Issue创建时间。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    /// Issue结束日期。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ended_at: Option<String>,
    /// Issue是否为私密 issue。Whether the issue is private.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invisible: Option<bool>,
    /// Issue标签列表，最多支持10个标签。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub labels: Option<Vec<Label>>,
    /// Issue最后活动时间。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_acted_at: Option<String>,
    /// Issue的唯一标识编号。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub number: Option<String>,
    /// Issue优先级。枚举值：`-2P`,`-1P`,`P0`,`P1`,`P2`,`P3`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub priority: Option<String>,
    /// 关联的仓库信息。Associated repository info.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repo: Option<RepoInfo>,
    /// Issue开始日期。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub started_at: Option<String>,
    /// Issue状态。枚举值：`open`,`closed`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    /// 状态变更原因。枚举值：`open`,`completed`,`not_planned`,`reopened`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state_reason: Option<String>,
    /// Issue标题，长度限制2-255字符。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Issue最后更新时间。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_at: Option<String>,
}

impl UserIssue {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "assignees",
        "author",
        "closed_at",
        "comment_count",
        "created_at",
        "ended_at",
        "invisible",
        "labels",
        "last_acted_at",
        "number",
        "priority",
        "repo",
        "started_at",
        "state",
        "state_reason",
        "title",
        "updated_at",
    ];
}
