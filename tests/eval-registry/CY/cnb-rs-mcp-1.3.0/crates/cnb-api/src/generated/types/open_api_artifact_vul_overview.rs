use serde::{Deserialize, Serialize};

/// `OpenAPIArtifactVulOverview`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct OpenAPIArtifactVulOverview {
    /// 严重风险漏洞数量
    #[serde(skip_serializing_if = "Option::is_none")]
    pub critical_vul_open_cnt: Option<i64>,
    /// 是否开启漏洞扫描
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enable: Option<bool>,
    /// 高风险漏洞数量
    #[serde(skip_serializing_if = "Option::is_none")]
    pub high_vul_open_cnt: Option<i64>,
    /// 低风险漏洞数量
    #[serde(skip_serializing_if = "Option::is_none")]
    pub low_vul_open_cnt: Option<i64>,
    /// 中风险漏洞数量
    #[serde(skip_serializing_if = "Option::is_none")]
    pub medium_vul_open_cnt: Option<i64>,
    /// 漏洞总数
    #[serde(skip_serializing_if = "Option::is_none")]
    pub open: Option<i64>,
}

impl OpenAPIArtifactVulOverview {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "critical_vul_open_cnt",
        "enable",
        "high_vul_open_cnt",
        "low_vul_open_cnt",
        "medium_vul_open_cnt",
        "open",
    ];
}
