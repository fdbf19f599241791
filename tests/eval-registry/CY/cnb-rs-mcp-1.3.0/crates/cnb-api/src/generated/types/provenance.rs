use super::CommonRegistryProvenance;
use super::ConanProvenance;
use super::ContainerProvenance;
use super::DockerModelProvenance;
use super::HelmProvenance;
use super::PypiProvenance;
use serde::{Deserialize, Serialize};

/// Provenance
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Provenance {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cargo: Option<CommonRegistryProvenance>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub composer: Option<CommonRegistryProvenance>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conan: Option<ConanProvenance>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub docker: Option<ContainerProvenance>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dockermodel: Option<DockerModelProvenance>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub generic: Option<CommonRegistryProvenance>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub helm: Option<HelmProvenance>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub maven: Option<CommonRegistryProvenance>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub npm: Option<CommonRegistryProvenance>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nuget: Option<CommonRegistryProvenance>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ohpm: Option<CommonRegistryProvenance>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pypi: Option<PypiProvenance>,
}

impl Provenance {
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
