use super::ActivityCreateRepoDetail;
use super::ActivityJoinGroupDetail;
use super::ActivityRepoDetail;
use serde::{Deserialize, Serialize};

/// `ActivityDate`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct ActivityDate {
    /// 代码评审数。Code review count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code_review_count: Option<i64>,
    /// 代码评审动态。Code review activities.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code_reviews: Option<Vec<ActivityRepoDetail>>,
    /// 提交数。Commit count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commit_count: Option<i64>,
    /// 仓库提交动态。Repo commit activities.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commits: Option<Vec<ActivityRepoDetail>>,
    /// 加入组织数。Joined group count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group_count: Option<i64>,
    /// 加入组织动态。Joined group activities.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub groups: Option<Vec<ActivityJoinGroupDetail>>,
    /// 议题动态。Issue activities.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub issues: Option<Vec<ActivityRepoDetail>>,
    /// 议题数。Issue count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub issues_count: Option<i64>,
    /// 私密度评分。Privacy score.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub private_score: Option<i64>,
    /// 合并请求数。Pull request count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pull_request_count: Option<i64>,
    /// 合并请求动态。Pull request activities.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pull_requests: Option<Vec<ActivityRepoDetail>>,
    /// 创建仓库数。Created repo count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repo_count: Option<i64>,
    /// 创建仓库动态。Created repo activities.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repos: Option<Vec<ActivityCreateRepoDetail>>,
}

impl ActivityDate {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "code_review_count",
        "code_reviews",
        "commit_count",
        "commits",
        "group_count",
        "groups",
        "issues",
        "issues_count",
        "private_score",
        "pull_request_count",
        "pull_requests",
        "repo_count",
        "repos",
    ];
}
