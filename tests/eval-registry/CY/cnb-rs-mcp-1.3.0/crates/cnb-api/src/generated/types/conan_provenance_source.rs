use serde::{Deserialize, Serialize};

/// `ConanProvenanceSource`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct ConanProvenanceSource {
    /// Digest 制品摘要.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub digest: Option<String>,
    /// `GitAddress` git仓库地址.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub git_address: Option<String>,
    /// `GitCommit` git提交记录.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub git_commit: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub package_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub package_revision: Option<String>,
    /// SN 流水线构建唯一标识。Pipeline build unique identifier.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sn: Option<String>,
}

impl ConanProvenanceSource {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "digest",
        "git_address",
        "git_commit",
        "package_id",
        "package_revision",
        "sn",
    ];
}
