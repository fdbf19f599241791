use serde::{Deserialize, Serialize};

/// `OpenAPIArtifactSbomOverview`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct OpenAPIArtifactSbomOverview {
    /// 是否开启 SBOM 扫描
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enable: Option<bool>,
}

impl OpenAPIArtifactSbomOverview {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["enable"];
}
