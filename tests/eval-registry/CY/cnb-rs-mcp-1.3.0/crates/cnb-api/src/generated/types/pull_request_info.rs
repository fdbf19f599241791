use super::Label;
use super::PullRefInfo;
use super::RepoInfo;
use super::UserInfo;
use serde::{Deserialize, Serialize};

/// `PullRequestInfo`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct PullRequestInfo {
    /// 处理人列表。Assignee list.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub assignees: Option<Vec<UserInfo>>,
    /// 作者信息。Author information.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub author: Option<UserInfo>,
    /// 目标分支信息。 Target branch info.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub base: Option<PullRefInfo>,
    /// 阻塞原因。枚举值：`no_merge_base`,`internal_error`,`code_conflict`,`status_check`,`waiting_review`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blocked_on: Option<String>,
    /// 创建时间。Created at.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    /// 源分支信息。 Source branch info.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub head: Option<PullRefInfo>,
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
    /// Pull唯一标识编号。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub number: Option<String>,
    /// 仓库信息。Repository information.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repo: Option<RepoInfo>,
    /// 评审者列表。Reviewer list.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reviewers: Option<Vec<UserInfo>>,
    /// Pull状态。枚举值：`open`,`closed`,`merged`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    /// 标题。Title.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// 更新时间。Updated at.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_at: Option<String>,
}

impl PullRequestInfo {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "assignees",
        "author",
        "base",
        "blocked_on",
        "created_at",
        "head",
        "labels",
        "last_acted_at",
        "mergeable_state",
        "merged_by",
        "number",
        "repo",
        "reviewers",
        "state",
        "title",
        "updated_at",
    ];
}
