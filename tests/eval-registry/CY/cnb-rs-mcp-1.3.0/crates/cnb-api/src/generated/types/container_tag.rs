use super::ContainerAnnotation;
use super::ContainerImage;
use super::LastPusher;
use serde::{Deserialize, Serialize};

/// `ContainerTag`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct ContainerTag {
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
    /// 是否有出生证明。Whether it has provenance.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub has_provenance: Option<bool>,
    /// 镜像列表。Image list.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub images: Option<Vec<ContainerImage>>,
    /// 最后推送人。Last pusher.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_pusher: Option<LastPusher>,
    /// 标签名。Tag name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// 总拉取次数。Total pull count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pull_count: Option<i64>,
    /// 最近拉取次数。Recent pull count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recent_pull_count: Option<i64>,
    /// 类型。Type.
    #[serde(rename = "type")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub type_: Option<String>,
}

impl ContainerTag {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "address",
        "annotations",
        "git_address",
        "guarded",
        "has_provenance",
        "images",
        "last_pusher",
        "name",
        "pull_count",
        "recent_pull_count",
        "type",
    ];
}
