use super::LastPusher;
use super::PypiProvenanceSource;
use serde::{Deserialize, Serialize};

/// `PypiProvenance`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct PypiProvenance {
    /// `LastPusher` 最后推送人.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_pusher: Option<LastPusher>,
    /// Package 制品名.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub package: Option<String>,
    /// `RegistryAddress` 制品库地址.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub registry_address: Option<String>,
    /// 出生证明来源列表。Provenance source list.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sources: Option<Vec<PypiProvenanceSource>>,
    /// Tag 制品标签名.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tag: Option<String>,
}

impl PypiProvenance {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "last_pusher",
        "package",
        "registry_address",
        "sources",
        "tag",
    ];
}
