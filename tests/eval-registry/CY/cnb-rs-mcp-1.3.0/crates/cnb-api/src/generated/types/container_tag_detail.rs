use super::ContainerAnnotation;
use super::ContainerImage;
use super::LastPusher;
use serde::{Deserialize, Serialize};

/// `ContainerTagDetail`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct ContainerTagDetail {
    /// 制品地址。Artifact address.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub address: Option<String>,
    /// 注解。Annotations.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub annotations: Option<ContainerAnnotation>,
    /// 源仓库地址。Source repository URL.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub git_address: Option<String>,
    /// Guarded 标记该标签下的制品是否被保护 仅 docker/helm/dockermodel 可能为 true
    #[serde(skip_serializing_if = "Option::is_none")]
    pub guarded: Option<bool>,
    /// `HasProvenance` 是否有出生证明; pypi和conan制品由于有多架构，取决于最新推送.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub has_provenance: Option<bool>,
    /// 主镜像。Primary image.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub image: Option<ContainerImage>,
    /// 最后推送人。Last pusher.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_pusher: Option<LastPusher>,
    /// 返回的结果是否和提供的架构匹配。Whether the result matches the requested architecture.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matches_requested_arch: Option<bool>,
    /// 可选镜像列表。Optional image list.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub options: Option<Vec<ContainerImage>>,
    /// 制品标识。Artifact identifier.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub package: Option<String>,
    /// 总拉取次数。Total pull count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pull_count: Option<i64>,
    /// 最近拉取次数。Recent pull count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recent_pull_count: Option<i64>,
    /// 制品 slug。Slug.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub slug: Option<String>,
    /// 标签名。Tag name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tag: Option<String>,
    #[serde(rename = "type")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub type_: Option<String>,
}

impl ContainerTagDetail {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "address",
        "annotations",
        "git_address",
        "guarded",
        "has_provenance",
        "image",
        "last_pusher",
        "matches_requested_arch",
        "options",
        "package",
        "pull_count",
        "recent_pull_count",
        "slug",
        "tag",
        "type",
    ];
}
