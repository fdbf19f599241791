use super::OpenAPIArtifactLicenseOverview;
use super::OpenAPIArtifactSbomOverview;
use super::OpenAPIArtifactVulOverview;
use serde::{Deserialize, Serialize};

/// `OpenAPIArtifactOverview`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct OpenAPIArtifactOverview {
    /// 制品 License 概览。Artifact license overview.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub artifact_license: Option<OpenAPIArtifactLicenseOverview>,
    /// 制品 SBOM 概览。Artifact SBOM overview.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub artifact_sbom: Option<OpenAPIArtifactSbomOverview>,
    /// 制品漏洞概览。Artifact vulnerability overview.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub artifact_vulnerability: Option<OpenAPIArtifactVulOverview>,
}

impl OpenAPIArtifactOverview {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "artifact_license",
        "artifact_sbom",
        "artifact_vulnerability",
    ];
}
