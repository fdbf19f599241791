use serde::{Deserialize, Serialize};

/// `PostReleaseForm`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct PostReleaseForm {
    /// 版本描述。Release description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body: Option<String>,
    /// 是否为草稿版本。Whether this is a draft release.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draft: Option<bool>,
    /// 是否设置为最新版本。可选值：`true`,`false`,`legacy`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub make_latest: Option<String>,
    /// 版本标题。Release title.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// 是否为预发布版本。Whether this is a pre-release.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prerelease: Option<bool>,
    /// 标签名称。Tag name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tag_name: Option<String>,
    /// 目标提交哈希或分支名称。Target commit hash or branch name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_commitish: Option<String>,
}

impl PostReleaseForm {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "body",
        "draft",
        "make_latest",
        "name",
        "prerelease",
        "tag_name",
        "target_commitish",
    ];
}
