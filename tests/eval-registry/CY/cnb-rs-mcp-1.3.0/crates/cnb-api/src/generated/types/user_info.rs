use serde::{Deserialize, Serialize};

/// `UserInfo`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct UserInfo {
    /// 用户头像。User avatar.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub avatar: Option<String>,
    /// 用户邮箱。User email.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    /// 是否冻结。Whether frozen.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub freeze: Option<bool>,
    /// 是否是 NPC。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_npc: Option<bool>,
    /// 昵称。 Nickname.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nickname: Option<String>,
    /// 用户名。Username.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub username: Option<String>,
}

impl UserInfo {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "avatar", "email", "freeze", "is_npc", "nickname", "username",
    ];
}
