use super::LastPusher;
use super::PackageType;
use serde::{Deserialize, Serialize};

/// Package
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Package {
    /// 版本数量。Version count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count: Option<i64>,
    /// 描述。Description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Guarded 标记该制品是否被保护 仅 docker/helm/dockermodel 在被保护时返回 true
    #[serde(skip_serializing_if = "Option::is_none")]
    pub guarded: Option<bool>,
    /// 是否为目录。Whether it is a directory.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_dir: Option<bool>,
    /// 标签列表。Labels.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub labels: Option<Vec<String>>,
    /// 最近产物名。Last artifact name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_artifact_name: Option<String>,
    /// 最后推送人。Last pusher.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_pusher: Option<LastPusher>,
    /// 包名。Package name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// 制品标识。Artifact identifier.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub package: Option<String>,
    /// 制品品类。Package type.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub package_type: Option<PackageType>,
    /// 总拉取次数。Total pull count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pull_count: Option<i64>,
    /// 最近拉取次数。Recent pull count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recent_pull_count: Option<i64>,
}

impl Package {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "count",
        "description",
        "guarded",
        "is_dir",
        "labels",
        "last_artifact_name",
        "last_pusher",
        "name",
        "package",
        "package_type",
        "pull_count",
        "recent_pull_count",
    ];
}
