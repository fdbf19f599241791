use serde::{Deserialize, Serialize};

/// `UserContributorSimply`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct UserContributorSimply {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commit_count: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub user_name: Option<String>,
}

impl UserContributorSimply {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["commit_count", "email", "user_name"];
}
