use super::DtoDependency;
use super::File;
use super::LastPusher;
use super::PyPIMetaData;
use serde::{Deserialize, Serialize};

/// `PyPIRegistryTagDetail`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct PyPIRegistryTagDetail {
    /// 制品地址。Artifact address.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub address: Option<String>,
    /// 依赖列表。Dependency list.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dependencies: Option<Vec<DtoDependency>>,
    /// 描述。Description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub desc: Option<String>,
    /// 文件列表。File list.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub files: Option<Vec<File>>,
    /// Guarded 标记该标签下的制品是否被保护 仅 docker/helm/dockermodel 可能为 true
    #[serde(skip_serializing_if = "Option::is_none")]
    pub guarded: Option<bool>,
    /// `HasProvenance` 是否有出生证明; pypi和conan制品由于有多架构，取决于最新推送.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub has_provenance: Option<bool>,
    /// 最后推送人。Last pusher.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_pusher: Option<LastPusher>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metadata: Option<PyPIMetaData>,
    /// 制品标识。Artifact identifier.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub package: Option<String>,
    /// 总拉取次数。Total pull count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pull_count: Option<i64>,
    /// 最近拉取次数。Recent pull count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recent_pull_count: Option<i64>,
    /// 制品大小。Artifact size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<i64>,
    /// 制品 slug。Slug.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub slug: Option<String>,
    /// 状态。Status.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    /// 标签名。Tag name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tag: Option<String>,
}

impl PyPIRegistryTagDetail {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "address",
        "dependencies",
        "desc",
        "files",
        "guarded",
        "has_provenance",
        "last_pusher",
        "metadata",
        "package",
        "pull_count",
        "recent_pull_count",
        "size",
        "slug",
        "status",
        "tag",
    ];
}
