use super::IssueResource;
use super::PullRequestResource;
use serde::{Deserialize, Serialize};

/// `MissionResources`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct MissionResources {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub issues: Option<Vec<IssueResource>>,
    /// `NextCursor` 游标分页：下一页游标（最后一条记录的 id）；无更多数据时为空。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pull_requests: Option<Vec<PullRequestResource>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total: Option<i64>,
}

impl MissionResources {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["issues", "next_cursor", "pull_requests", "total"];
}
