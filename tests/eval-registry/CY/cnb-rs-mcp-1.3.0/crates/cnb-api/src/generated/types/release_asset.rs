use super::UserInfo;
use serde::{Deserialize, Serialize};

/// `ReleaseAsset`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct ReleaseAsset {
    /// 拼写错误，即将删除，请使用 `browser_download_url`。Spelling error, about to be deleted. Please use `browser_download_url`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub brower_download_url: Option<String>,
    /// 浏览器下载URL（通过主域名，用于用户直接访问）。Browser download URL (via main domain, for direct user access).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub browser_download_url: Option<String>,
    /// 附件内容类型。Attachment content type.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content_type: Option<String>,
    /// 创建时间。Created at.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    /// 附件哈希算法。Attachment hash algorithm.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hash_algo: Option<String>,
    /// 附件哈希值。Attachment hash.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hash_value: Option<String>,
    /// 附件唯一标识符。Attachment unique identifier.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// 附件名称。Attachment name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// 附件路径。Attachment path.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// 附件大小（字节）。Attachment size (bytes).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<i64>,
    /// 更新时间。Updated at.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_at: Option<String>,
    /// 附件上传者信息。Attachment uploader information.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub uploader: Option<UserInfo>,
    /// API下载URL（通过API域名，用于程序化下载）。API download URL (via API domain, for programmatic download).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
}

impl ReleaseAsset {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "brower_download_url",
        "browser_download_url",
        "content_type",
        "created_at",
        "hash_algo",
        "hash_value",
        "id",
        "name",
        "path",
        "size",
        "updated_at",
        "uploader",
        "url",
    ];
}
