use super::Meta;
use super::UserContributorSimply;
use serde::{Deserialize, Serialize};

/// `RepoContribSimply`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct RepoContribSimply {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub top_100_contrib: Option<Vec<UserContributorSimply>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total: Option<i64>,
}

impl RepoContribSimply {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["meta", "top_100_contrib", "total"];
}
