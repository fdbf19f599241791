use super::ContainerTag;
use super::LastPusher;
use serde::{Deserialize, Serialize};

/// `ContainerPackageDetail`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct ContainerPackageDetail {
    /// 制品地址。Artifact address.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub address: Option<String>,
    /// 描述。Description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub desc: Option<String>,
    /// Guarded 标记该制品包下是否存在被保护的制品 仅 docker/helm/dockermodel 在被保护时返回 true
    #[serde(skip_serializing_if = "Option::is_none")]
    pub guarded: Option<bool>,
    /// 最后推送人。Last pusher.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_pusher: Option<LastPusher>,
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
    /// 标签总数。Total tag count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tag_total: Option<i64>,
    /// 标签列表。Tag list.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<ContainerTag>>,
}

impl ContainerPackageDetail {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "address",
        "desc",
        "guarded",
        "last_pusher",
        "package",
        "pull_count",
        "recent_pull_count",
        "slug",
        "tag_total",
        "tags",
    ];
}
