use serde::{Deserialize, Serialize};

/// `UpdateUserInfoPayload`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct UpdateUserInfoPayload {
    /// 地址。Address.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub address: Option<String>,
    /// 个人简介。Bio.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bio: Option<String>,
    /// 公司。Company.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub company: Option<String>,
    /// 所在地。Location.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
    /// 用户名。Username.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// 昵称。Nickname.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nickname: Option<String>,
    /// 用于展示 README 的仓库 ID。Repository ID used for displaying README.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub readme_repo_id: Option<i64>,
    /// 用于展示 README 的仓库路径。Repository path used for displaying README.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub readme_repo_path: Option<String>,
    /// 个人主页。Personal site.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub site: Option<String>,
    /// 微信公众号。`WeChat` official account.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wechat_mp: Option<String>,
    /// 微信公众号二维码。`WeChat` official account QR code.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wechat_mp_qrcode: Option<String>,
}

impl UpdateUserInfoPayload {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "address",
        "bio",
        "company",
        "location",
        "name",
        "nickname",
        "readme_repo_id",
        "readme_repo_path",
        "site",
        "wechat_mp",
        "wechat_mp_qrcode",
    ];
}
