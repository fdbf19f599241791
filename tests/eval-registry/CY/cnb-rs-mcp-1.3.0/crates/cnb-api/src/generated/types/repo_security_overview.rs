use super::CodeIssueSummary;
use super::CodeLicenseOverview;
use super::CodeSbomOverview;
use super::CodeSensitiveSummary;
use super::CodeVulOverview;
use super::RepoSecurityRiskCnt;
use super::SkillScanOverview;
use serde::{Deserialize, Serialize};

/// `RepoSecurityOverview`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct RepoSecurityOverview {
    /// 源码扫描问题概览。Source code scanning issue overview.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code_issue: Option<CodeIssueSummary>,
    /// 代码许可证概览。Code license overview.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code_license: Option<CodeLicenseOverview>,
    /// 代码 SBOM 概览。Code SBOM overview.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code_sbom: Option<CodeSbomOverview>,
    /// 代码敏感信息概览。Code sensitive information overview.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code_sensitive: Option<CodeSensitiveSummary>,
    /// 代码漏洞概览。Code vulnerability overview.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code_vulnerability: Option<CodeVulOverview>,
    /// 风险数量概览。Risk count overview.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub risk_cnt: Option<RepoSecurityRiskCnt>,
    /// Skill 扫描概览。Skill scanning overview.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skill_scan: Option<SkillScanOverview>,
}

impl RepoSecurityOverview {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "code_issue",
        "code_license",
        "code_sbom",
        "code_sensitive",
        "code_vulnerability",
        "risk_cnt",
        "skill_scan",
    ];
}
