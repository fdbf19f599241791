use serde::{Deserialize, Serialize};

/// 用户关注信息，包含用户昵称、用户名与当前访问者是否关注。 User follow info, including nickname, username and whether the current visitor follows this user.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct UserFollowResult {
    /// 是否冻结。Whether the user is frozen.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub freeze: Option<bool>,
    /// 查询人是否 follow 了此用户。Whether the current visitor follows this user.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_following: Option<bool>,
    /// 是否锁定。Whether the user is locked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub locked: Option<bool>,
    /// 用户昵称。User nickname.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nickname: Option<String>,
    /// 用户名。Username.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub username: Option<String>,
}

impl UserFollowResult {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["freeze", "is_following", "locked", "nickname", "username"];
}
