use serde::{Deserialize, Serialize};

/// Forks
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Forks {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fork_count: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub freeze: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nickname: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub user_freeze: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub user_lock: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub username: Option<String>,
}

impl Forks {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "created_at",
        "fork_count",
        "freeze",
        "nickname",
        "path",
        "user_freeze",
        "user_lock",
        "username",
    ];
}
