use super::LastPusher;
use serde::{Deserialize, Serialize};

/// `HelmProvenance`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct HelmProvenance {
    /// Digest 制品摘要.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub digest: Option<String>,
    /// `GitAddress` git仓库地址.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub git_address: Option<String>,
    /// `GitCommit` git提交记录.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub git_commit: Option<String>,
    /// `LastPusher` 最后推送人.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_pusher: Option<LastPusher>,
    /// Package 制品名.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub package: Option<String>,
    /// `RegistryAddress` 制品库地址.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub registry_address: Option<String>,
    /// SN 流水线构建唯一标识。Pipeline build unique identifier.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sn: Option<String>,
    /// Tag 制品标签名.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tag: Option<String>,
}

impl HelmProvenance {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "digest",
        "git_address",
        "git_commit",
        "last_pusher",
        "package",
        "registry_address",
        "sn",
        "tag",
    ];
}
