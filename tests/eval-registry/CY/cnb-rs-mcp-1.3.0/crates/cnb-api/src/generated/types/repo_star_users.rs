use super::StarUser;
use serde::{Deserialize, Serialize};

/// `RepoStarUsers`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct RepoStarUsers {
    /// 其中我关注的用户数。Number of users I follow among them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub my_follow_count: Option<i64>,
    /// star 用户总数。Total number of starred users.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total: Option<i64>,
    /// star 用户列表。Starred users list.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub users: Option<Vec<StarUser>>,
}

impl RepoStarUsers {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["my_follow_count", "total", "users"];
}
