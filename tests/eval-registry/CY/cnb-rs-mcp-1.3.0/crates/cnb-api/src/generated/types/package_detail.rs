use super::ChartPackageDetail;
use super::CommonRegistryPackageDetail;
use super::ContainerPackageDetail;
use super::DockerModelPackageDetail;
use serde::{Deserialize, Serialize};

/// `PackageDetail`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct PackageDetail {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cargo: Option<CommonRegistryPackageDetail>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub composer: Option<CommonRegistryPackageDetail>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conan: Option<CommonRegistryPackageDetail>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub docker: Option<ContainerPackageDetail>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dockermodel: Option<DockerModelPackageDetail>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub generic: Option<CommonRegistryPackageDetail>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub helm: Option<ChartPackageDetail>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub maven: Option<CommonRegistryPackageDetail>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub npm: Option<CommonRegistryPackageDetail>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nuget: Option<CommonRegistryPackageDetail>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ohpm: Option<CommonRegistryPackageDetail>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pypi: Option<CommonRegistryPackageDetail>,
}

impl PackageDetail {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "cargo",
        "composer",
        "conan",
        "docker",
        "dockermodel",
        "generic",
        "helm",
        "maven",
        "npm",
        "nuget",
        "ohpm",
        "pypi",
    ];
}
