use serde::{Deserialize, Serialize};

/// `PyPIMetaData`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct PyPIMetaData {
    /// 作者。Author.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub author: Option<String>,
    /// 主页。Home page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub home_page: Option<String>,
    /// 许可证地址。License URL.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub license_url: Option<String>,
    /// 最低稳定性。Minimum stability.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub minimum_stability: Option<String>,
    /// 包名。Package name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub package_name: Option<String>,
    /// 制品标签。Package tag.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub package_tag: Option<String>,
    /// 制品品类。Package type.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub package_type: Option<String>,
    /// 说明文档。Readme.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub readme: Option<String>,
    /// 仓库地址。Repository URL.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repository_url: Option<String>,
}

impl PyPIMetaData {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "author",
        "home_page",
        "license_url",
        "minimum_stability",
        "package_name",
        "package_tag",
        "package_type",
        "readme",
        "repository_url",
    ];
}
