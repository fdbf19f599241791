use super::LabelOptionLite;
use super::MissionUserInfo;
use super::Property;
use super::PullRequestResourceReviewer;
use serde::{Deserialize, Serialize};

/// `PullRequestResource`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct PullRequestResource {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub assignees: Option<Vec<MissionUserInfo>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub author: Option<MissionUserInfo>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub base_repo_ref: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blocked_on: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub comment_count: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commit_count: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file_count: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub head_repo_ref: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_merged: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_ready_for_merge: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub labels: Option<Vec<LabelOptionLite>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_acted_at: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub merge_style: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mergeable_state: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub number: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub properties: Option<Vec<Property>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repo_slug: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reviewers: Option<Vec<PullRequestResourceReviewer>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status_check_commit_sha: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_at: Option<String>,
}

impl PullRequestResource {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "assignees",
        "author",
        "base_repo_ref",
        "blocked_on",
        "comment_count",
        "commit_count",
        "created_at",
        "file_count",
        "head_repo_ref",
        "id",
        "is_merged",
        "is_ready_for_merge",
        "labels",
        "last_acted_at",
        "merge_style",
        "mergeable_state",
        "number",
        "properties",
        "repo_slug",
        "reviewers",
        "state",
        "status_check_commit_sha",
        "title",
        "updated_at",
    ];
}
