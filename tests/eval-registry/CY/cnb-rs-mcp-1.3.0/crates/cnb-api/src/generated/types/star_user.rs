use super::UserType;
use serde::{Deserialize, Serialize};

/// `StarUser`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct StarUser {
    /// 用户外观设置（如主题 light/dark/system）。User appearance setting.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub appearance: Option<String>,
    /// 头像地址。Avatar URL.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub avatar: Option<String>,
    /// 创建时间。Creation time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    /// 邮箱。Email.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    /// 是否冻结。Whether the user is frozen.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub freeze: Option<bool>,
    /// 用户唯一标识。User unique ID.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// 当前访问者是否关注了该用户。Whether the current visitor follows this user.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_follow: Option<bool>,
    /// 是否锁定。Whether the user is locked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub locked: Option<bool>,
    /// 用户昵称。User nickname.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nickname: Option<String>,
    /// star 时间。Star time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stared_at: Option<String>,
    /// 用户类型。User type.
    #[serde(rename = "type")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub type_: Option<UserType>,
    /// 用户名。Username.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub username: Option<String>,
    /// 认证类型。Verification type.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verified: Option<i64>,
    /// 认证过期时间。Verification expiration time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verified_expire_in: Option<String>,
}

impl StarUser {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "appearance",
        "avatar",
        "created_at",
        "email",
        "freeze",
        "id",
        "is_follow",
        "locked",
        "nickname",
        "stared_at",
        "type",
        "username",
        "verified",
        "verified_expire_in",
    ];
}
