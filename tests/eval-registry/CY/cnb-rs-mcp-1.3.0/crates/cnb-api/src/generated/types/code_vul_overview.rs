use serde::{Deserialize, Serialize};

/// `CodeVulOverview`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct CodeVulOverview {
    /// 忽略的严重风险漏洞的数量。Number of ignored critical-risk vulnerabilities.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub critical_vul_ignore_cnt: Option<i64>,
    /// 打开的严重风险级别漏洞的数量。Number of open critical-risk vulnerabilities.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub critical_vul_open_cnt: Option<i64>,
    /// 是否开启代码漏洞扫描。Whether code vulnerability scanning is enabled.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enable: Option<bool>,
    /// 忽略的高风险级别漏洞的数量。Number of ignored high-risk vulnerabilities.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub high_vul_ignore_cnt: Option<i64>,
    /// 打开的高风险级别漏洞的数量。Number of open high-risk vulnerabilities.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub high_vul_open_cnt: Option<i64>,
    /// 忽略问题数量。Number of ignored issues.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ignored: Option<i64>,
    /// 忽略的低风险级别漏洞的数量。Number of ignored low-risk vulnerabilities.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub low_vul_ignore_cnt: Option<i64>,
    /// 打开的低风险级别漏洞的数量。Number of open low-risk vulnerabilities.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub low_vul_open_cnt: Option<i64>,
    /// 忽略的中风险级别漏洞的数量。Number of ignored medium-risk vulnerabilities.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub medium_vul_ignore_cnt: Option<i64>,
    /// 打开的中风险级别漏洞的数量。Number of open medium-risk vulnerabilities.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub medium_vul_open_cnt: Option<i64>,
    /// 开启中问题数量。Number of open issues.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub open: Option<i64>,
}

impl CodeVulOverview {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "critical_vul_ignore_cnt",
        "critical_vul_open_cnt",
        "enable",
        "high_vul_ignore_cnt",
        "high_vul_open_cnt",
        "ignored",
        "low_vul_ignore_cnt",
        "low_vul_open_cnt",
        "medium_vul_ignore_cnt",
        "medium_vul_open_cnt",
        "open",
    ];
}
