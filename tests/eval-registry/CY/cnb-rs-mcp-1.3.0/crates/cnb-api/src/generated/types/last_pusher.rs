use serde::{Deserialize, Serialize};

/// `LastPusher`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct LastPusher {
    /// 是否被冻结。Whether frozen.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_frozen: Option<bool>,
    /// 是否被锁定。Whether locked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_lock: Option<bool>,
    /// 用户名。Username.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// 昵称。Nickname.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nickname: Option<String>,
    /// 推送时间。Push time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub push_at: Option<String>,
}

impl LastPusher {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["is_frozen", "is_lock", "name", "nickname", "push_at"];
}
