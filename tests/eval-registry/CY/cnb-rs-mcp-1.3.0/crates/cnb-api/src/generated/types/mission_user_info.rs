use serde::{Deserialize, Serialize};

/// `MissionUserInfo`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct MissionUserInfo {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nickname: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub username: Option<String>,
}

impl MissionUserInfo {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["nickname", "username"];
}
