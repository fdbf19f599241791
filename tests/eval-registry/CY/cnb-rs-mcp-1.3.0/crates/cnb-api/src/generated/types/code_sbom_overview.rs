use serde::{Deserialize, Serialize};

/// `CodeSbomOverview`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct CodeSbomOverview {
    /// 是否开启 SBOM 扫描。Whether SBOM scanning is enabled.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enable: Option<bool>,
}

impl CodeSbomOverview {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["enable"];
}
