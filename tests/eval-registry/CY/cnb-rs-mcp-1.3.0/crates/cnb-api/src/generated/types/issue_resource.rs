use super::LabelOptionLite;
use super::MissionUserInfo;
use super::Property;
use serde::{Deserialize, Serialize};

/// `IssueResource`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct IssueResource {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub assignees: Option<Vec<MissionUserInfo>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub author: Option<MissionUserInfo>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub closed_at: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub comment_count: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ended_at: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// 是否为私密 issue。Whether the issue is private.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invisible: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub labels: Option<Vec<LabelOptionLite>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_acted_at: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub number: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub priority: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub properties: Option<Vec<Property>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repo_slug: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub started_at: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state_reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_at: Option<String>,
}

impl IssueResource {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "assignees",
        "author",
        "closed_at",
        "comment_count",
        "created_at",
        "ended_at",
        "id",
        "invisible",
        "labels",
        "last_acted_at",
        "number",
        "priority",
        "properties",
        "repo_slug",
        "started_at",
        "state",
        "state_reason",
        "title",
        "updated_at",
    ];
}
