use super::ReleaseAsset;
use super::UserInfo;
use serde::{Deserialize, Serialize};

/// Release
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Release {
    /// 附件列表。Attachment list.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub assets: Option<Vec<ReleaseAsset>>,
    /// 作者信息。Author information.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub author: Option<UserInfo>,
    /// 版本描述。Release description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body: Option<String>,
    /// 创建时间。Created at.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    /// 是否为草稿版本。Whether this is a draft release.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draft: Option<bool>,
    /// 版本唯一标识符。Release unique identifier.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// 是否为最新版本。Whether this is the latest version.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_latest: Option<bool>,
    /// 版本标题。Release title.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// 是否为预发布版本。Whether this is a pre-release.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prerelease: Option<bool>,
    /// 版本发布时间。Release published at.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub published_at: Option<String>,
    /// 标签与提交标识符。Tag and commit identifier.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tag_commitish: Option<String>,
    /// 标签名称。Tag name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tag_name: Option<String>,
    /// 更新时间。Updated at.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_at: Option<String>,
}

impl Release {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "assets",
        "author",
        "body",
        "created_at",
        "draft",
        "id",
        "is_latest",
        "name",
        "prerelease",
        "published_at",
        "tag_commitish",
        "tag_name",
        "updated_at",
    ];
}
