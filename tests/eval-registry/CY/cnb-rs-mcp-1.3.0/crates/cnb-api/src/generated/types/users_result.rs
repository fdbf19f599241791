use super::UserType;
use serde::{Deserialize, Serialize};

/// 用户信息合并内容，包含用户基本信息、详细信息与关注状态。 Merged user info, including basic user info, detailed info and follow status.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct UsersResult {
    /// 地址。Address.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub address: Option<String>,
    /// 用户外观设置（如主题 light/dark/system）。User appearance setting.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub appearance: Option<String>,
    /// 用户赞赏码状态，0-无赞赏码，1-有。User appreciation code status.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub appreciate_status: Option<i64>,
    /// 头像地址。Avatar URL.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub avatar: Option<String>,
    /// 个人简介。Bio.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bio: Option<String>,
    /// 公司。Company.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub company: Option<String>,
    /// 创建时间。Creation time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    /// 邮箱。Email.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    /// 关注用户数。Followed users count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub follow_count: Option<i64>,
    /// 关注的任务集数。Followed mission count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub follow_mission_count: Option<i64>,
    /// 关注的仓库数。Followed repo count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub follow_repo_count: Option<i64>,
    /// 粉丝数。Follower count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub follower_count: Option<i64>,
    /// 是否冻结。Whether the user is frozen.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub freeze: Option<bool>,
    /// 性别。Gender.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gender: Option<i64>,
    /// 组织数。Organization count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group_count: Option<i64>,
    /// 用户唯一标识。User unique ID.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// 用户绑定的身份认证提供商信息。User's bound identity providers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub identity_providers: Option<serde_json::Value>,
    /// 查询人是否 follow 了此用户。Whether the visitor follows this user.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_following: Option<bool>,
    /// 所在地。Location.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
    /// 是否锁定。Whether the user is locked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub locked: Option<bool>,
    /// 任务集数。Mission count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mission_count: Option<i64>,
    /// 用户昵称。User nickname.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nickname: Option<String>,
    /// 公开任务集数。Public mission count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub public_mission_count: Option<i64>,
    /// 公开制品库数。Public registry count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub public_registry_count: Option<i64>,
    /// 公开仓库数。Public repo count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub public_repo_count: Option<i64>,
    /// 用户 README 仓库路径。User README repo path.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub readme_repo_path: Option<String>,
    /// 制品库数。Registry count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub registry_count: Option<i64>,
    /// 仓库数。Repo count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repo_count: Option<i64>,
    /// 赞赏金额。Reward amount.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reward_amount: Option<i64>,
    /// 赞赏数。Reward count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reward_count: Option<i64>,
    /// 个人主页。Personal site.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub site: Option<String>,
    /// 星标数。Stars count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stars_count: Option<i64>,
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
    /// 微信公众号。`WeChat` official account.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wechat_mp: Option<String>,
    /// 微信公众号二维码。`WeChat` official account QR code.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wechat_mp_qrcode: Option<String>,
}

impl UsersResult {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "address",
        "appearance",
        "appreciate_status",
        "avatar",
        "bio",
        "company",
        "created_at",
        "email",
        "follow_count",
        "follow_mission_count",
        "follow_repo_count",
        "follower_count",
        "freeze",
        "gender",
        "group_count",
        "id",
        "identity_providers",
        "is_following",
        "location",
        "locked",
        "mission_count",
        "nickname",
        "public_mission_count",
        "public_registry_count",
        "public_repo_count",
        "readme_repo_path",
        "registry_count",
        "repo_count",
        "reward_amount",
        "reward_count",
        "site",
        "stars_count",
        "type",
        "username",
        "verified",
        "verified_expire_in",
        "wechat_mp",
        "wechat_mp_qrcode",
    ];
}
