use super::ChartTagDetail;
use super::CommonRegistryTagDetail;
use super::ConanRegistryTagDetail;
use super::ContainerTagDetail;
use super::DockerModelTagDetail;
use super::PyPIRegistryTagDetail;
use serde::{Deserialize, Serialize};

/// `TagDetail`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct TagDetail {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cargo: Option<CommonRegistryTagDetail>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub composer: Option<CommonRegistryTagDetail>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conan: Option<ConanRegistryTagDetail>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub docker: Option<ContainerTagDetail>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dockermodel: Option<DockerModelTagDetail>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub generic: Option<CommonRegistryTagDetail>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub helm: Option<ChartTagDetail>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub maven: Option<CommonRegistryTagDetail>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub npm: Option<CommonRegistryTagDetail>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nuget: Option<CommonRegistryTagDetail>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ohpm: Option<CommonRegistryTagDetail>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pypi: Option<PyPIRegistryTagDetail>,
}

impl TagDetail {
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
