use serde::{Deserialize, Serialize};

/// `RepoSecurityRiskCnt`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct RepoSecurityRiskCnt {
    /// 是否开启源码扫描。Whether source code scanning is enabled.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code_issue_enable: Option<bool>,
    /// 源码扫描风险数量 (严重+高风险）。Source code scanning risk count (critical + high risk).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code_issue_risk_cnt: Option<i64>,
    /// 是否开启代码 License 扫描
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code_license_enable: Option<bool>,
    /// License风险数量 (高风险）
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code_license_risk_cnt: Option<i64>,
    /// 是否开启代码 SBOM 扫描。Whether code SBOM scanning is enabled.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code_sbom_enable: Option<bool>,
    /// 是否开启代码敏感信息扫描。Whether code sensitive information scanning is enabled.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code_sensitive_enable: Option<bool>,
    /// 敏感信息风险数量（高风险）。Sensitive information risk count (high risk).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code_sensitive_risk_cnt: Option<i64>,
    /// 是否开启代码漏洞扫描。Whether code vulnerability scanning is enabled.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code_vulnerability_enable: Option<bool>,
    /// 代码漏洞风险数量（严重+高风险）。Code vulnerability risk count (critical + high risk).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code_vulnerability_risk_cnt: Option<i64>,
    /// 是否开启安全模块。Whether the security module is enabled.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enable: Option<bool>,
    /// 是否开启 Skill 扫描。Whether Skill scanning is enabled.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skill_scan_enable: Option<bool>,
    /// Skill 高风险子文件数量。Skill high-risk subfile count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skill_scan_risk_cnt: Option<i64>,
    /// 总计数。Total count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total: Option<i64>,
}

impl RepoSecurityRiskCnt {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "code_issue_enable",
        "code_issue_risk_cnt",
        "code_license_enable",
        "code_license_risk_cnt",
        "code_sbom_enable",
        "code_sensitive_enable",
        "code_sensitive_risk_cnt",
        "code_vulnerability_enable",
        "code_vulnerability_risk_cnt",
        "enable",
        "skill_scan_enable",
        "skill_scan_risk_cnt",
        "total",
    ];
}
