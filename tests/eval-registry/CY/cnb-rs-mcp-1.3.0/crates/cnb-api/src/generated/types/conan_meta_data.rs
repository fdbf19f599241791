use super::ConanPackage;
use serde::{Deserialize, Serialize};

/// `ConanMetaData`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct ConanMetaData {
    /// 作者。Author.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub author: Option<String>,
    /// conan 的 package 列表。Conan package list.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conan_packages: Option<Vec<ConanPackage>>,
    /// conan recipe 的 revision, conan 制品专用字段。Recipe revision, conan-specific.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conan_recipe_revision: Option<String>,
    /// conan 引用。Conan reference.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conan_reference: Option<String>,
    /// 主页。Home page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub home_page: Option<String>,
    /// 许可证地址。License URL.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub license_url: Option<String>,
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

impl ConanMetaData {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "author",
        "conan_packages",
        "conan_recipe_revision",
        "conan_reference",
        "home_page",
        "license_url",
        "package_name",
        "package_tag",
        "package_type",
        "readme",
        "repository_url",
    ];
}
