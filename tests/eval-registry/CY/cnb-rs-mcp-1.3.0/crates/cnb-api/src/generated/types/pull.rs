use super::LabelInfo;
use super::PullRef;
use super::PullReviewer;
use super::StatusesMap;
use super::UserInfo;
use serde::{Deserialize, Serialize};

/// Pull
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Pull {
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
    /// 关联的标签列表（含创建者和贴标者信息）。Associated tag list (including creator and tagger info).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub labels: Option<Vec<LabelInfo>>,
    /// 可合并状态。枚举值：`checking`,`mergeable`,`merging`,`merged`,`conflict`,`no-merge-base`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mergeable_state: Option<String>,
    /// 合并者信息。Merger information.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub merged_by: Option<UserInfo>,
    /// 合并请求唯一标识符编号。Merge request unique identifier number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub number: Option<String>,
    /// 评审人列表，包含评审状态信息。Reviewer list with review status.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reviewers: Option<Vec<PullReviewer>>,
    /// 合并请求状态。枚举值：`open`,`closed`,`merged`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    /// Statuses 该合并请求关联的状态，按分类分组（如 `npc`）。Statuses attached to the pull request, grouped by category (e.g. `npc`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub statuses: Option<StatusesMap>,
    /// 合并请求标题。Merge request title.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
}

impl Pull {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "author",
        "base",
        "blocked_on",
        "body",
        "head",
        "is_force_merged",
        "is_merged",
        "is_wip",
        "labels",
        "mergeable_state",
        "merged_by",
        "number",
        "reviewers",
        "state",
        "statuses",
        "title",
    ];
}
