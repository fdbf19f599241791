use super::ApiRepo;
use super::Label;
use super::PullRef;
use super::UserInfo;
use serde::{Deserialize, Serialize};

/// `PullRequest`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct PullRequest {
    /// 处理人列表。Assignee list.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub assignees: Option<Vec<UserInfo>>,
    /// 作者信息。Author information.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub author: Option<UserInfo>,
    /// 目标分支信息。 Target branch info.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub base: Option<PullRef>,
    /// 阻塞原因。枚举值：`no_merge_base`,`internal_error`,`code_conflict`,`status_check`,`waiting_review`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blocked_on: Option<String>,
    /// 合并请求内容。Merge request content.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body: Option<String>,
    /// 评论数量。Comment count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub comment_count: Option<i64>,
    /// 创建时间。Created at.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    /// 源分支信息。 Source branch info.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub head: Option<PullRef>,
    /// 是否强制合并。Whether the pull request was force-merged, bypassing branch protection rules.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_force_merged: Option<bool>,
    /// 是否已经合并。Whether the pull request has been merged.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_merged: Option<bool>,
    /// 是否为WIP状态，WIP状态表示合并请求是否是草稿阶段。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_wip: Option<bool>,
    /// 标签列表。Tag list.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub labels: Option<Vec<Label>>,
    /// 最后更新时间。 Last updated at.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_acted_at: Option<String>,
    /// 可合并状态。枚举值：`checking`,`mergeable`,`merging`,`merged`,`conflict`,`no-merge-base`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mergeable_state: Option<String>,
    /// 合并者信息。Merger information.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub merged_by: Option<UserInfo>,
    /// Pulls唯一标识编号。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub number: Option<String>,
    /// 仓库信息。Repository information.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repo: Option<ApiRepo>,
    /// 评审数量。Review count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub review_count: Option<i64>,
    /// 合并请求状态。枚举值：`open`,`closed`,`merged`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    /// 合并请求标题。Merge request title.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// 更新时间。Updated at.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_at: Option<String>,
}

impl PullRequest {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "assignees",
        "author",
        "base",
        "blocked_on",
        "body",
        "comment_count",
        "created_at",
        "head",
        "is_force_merged",
        "is_merged",
        "is_wip",
        "labels",
        "last_acted_at",
        "mergeable_state",
        "merged_by",
        "number",
        "repo",
        "review_count",
        "state",
        "title",
        "updated_at",
    ];
}
