use super::AccessRole;
use super::ChannelTypeTarget;
use super::UserType;
use super::Users;
use serde::{Deserialize, Serialize};

/// `InheritMembersUser`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct InheritMembersUser {
    /// 成员在资源上的权限级别。Member access level on the resource.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub access_level: Option<AccessRole>,
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
    /// 邮箱验证状态。Email verification status.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email_verification: Option<String>,
    /// 是否冻结。Whether the user is frozen.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub freeze: Option<bool>,
    /// 用户唯一标识。User unique ID.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// 邀请人。Inviter.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub inviter: Option<Users>,
    /// 加入时间。Join time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub join_time: Option<String>,
    /// 是否锁定。Whether the user is locked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub locked: Option<bool>,
    /// 成员来源渠道。Member channel.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub member_channel: Option<ChannelTypeTarget>,
    /// 用户昵称。User nickname.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nickname: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub self_member: Option<bool>,
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

impl InheritMembersUser {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "access_level",
        "appearance",
        "avatar",
        "created_at",
        "email",
        "email_verification",
        "freeze",
        "id",
        "inviter",
        "join_time",
        "locked",
        "member_channel",
        "nickname",
        "self_member",
        "type",
        "username",
        "verified",
        "verified_expire_in",
    ];
}
