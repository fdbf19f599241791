use super::ChartTag;
use super::CommonRegistryTag;
use super::ContainerTag;
use super::DockerModelTag;
use serde::{Deserialize, Serialize};

/// `ArtifactoryDtoTag`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct ArtifactoryDtoTag {
    /// Cargo 制品标签列表。Cargo tags.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cargo: Option<Vec<CommonRegistryTag>>,
    /// Composer 制品标签列表。Composer tags.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub composer: Option<Vec<CommonRegistryTag>>,
    /// Conan 制品标签列表。Conan tags.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conan: Option<Vec<CommonRegistryTag>>,
    /// Docker 制品标签列表。Docker tags.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub docker: Option<Vec<ContainerTag>>,
    /// Docker 模型制品标签列表。Docker model tags.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dockermodel: Option<Vec<DockerModelTag>>,
    /// 通用制品标签列表。Generic tags.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub generic: Option<Vec<CommonRegistryTag>>,
    /// Helm 制品标签列表。Helm tags.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub helm: Option<Vec<ChartTag>>,
    /// Maven 制品标签列表。Maven tags.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub maven: Option<Vec<CommonRegistryTag>>,
    /// Npm 制品标签列表。Npm tags.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub npm: Option<Vec<CommonRegistryTag>>,
    /// Nuget 制品标签列表。Nuget tags.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nuget: Option<Vec<CommonRegistryTag>>,
    /// Ohpm 制品标签列表。Ohpm tags.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ohpm: Option<Vec<CommonRegistryTag>>,
    /// 制品标识。Artifact identifier.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub package: Option<String>,
    /// Pypi 制品标签列表。Pypi tags.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pypi: Option<Vec<CommonRegistryTag>>,
}

impl ArtifactoryDtoTag {
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
        "package",
        "pypi",
    ];
}
