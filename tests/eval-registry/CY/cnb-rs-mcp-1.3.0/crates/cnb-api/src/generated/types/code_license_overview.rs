use serde::{Deserialize, Serialize};

/// `CodeLicenseOverview`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct CodeLicenseOverview {
    /// 是否开启 License 扫描
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enable: Option<bool>,
    /// 高风险 License 数量
    #[serde(skip_serializing_if = "Option::is_none")]
    pub high_risk_cnt: Option<i64>,
    /// 低风险 License 数量
    #[serde(skip_serializing_if = "Option::is_none")]
    pub low_risk_cnt: Option<i64>,
    /// 中风险 License 数量
    #[serde(skip_serializing_if = "Option::is_none")]
    pub medium_risk_cnt: Option<i64>,
    /// 未知风险 License 数量
    #[serde(skip_serializing_if = "Option::is_none")]
    pub na_risk_cnt: Option<i64>,
}

impl CodeLicenseOverview {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "enable",
        "high_risk_cnt",
        "low_risk_cnt",
        "medium_risk_cnt",
        "na_risk_cnt",
    ];
}
