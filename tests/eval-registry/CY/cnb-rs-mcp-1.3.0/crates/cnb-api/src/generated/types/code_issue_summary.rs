use serde::{Deserialize, Serialize};

/// `CodeIssueSummary`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct CodeIssueSummary {
    /// 严重风险问题数量。Number of critical-risk issues.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub critical_count: Option<i64>,
    /// 严重风险问题忽略数量。Number of ignored critical-risk issues.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub critical_ignore_count: Option<i64>,
    /// 是否开启源码信息扫描。Whether source code scanning is enabled.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enable: Option<bool>,
    /// 高风险问题数量。Number of high-risk issues.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub high_count: Option<i64>,
    /// 高风险问题忽略数量。Number of ignored high-risk issues.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub high_ignore_count: Option<i64>,
    /// 忽略的问题数量。Number of ignored issues.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ignored: Option<i64>,
    /// 低风险问题数量。Number of low-risk issues.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub low_count: Option<i64>,
    /// 低风险问题忽略数量。Number of ignored low-risk issues.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub low_ignore_count: Option<i64>,
    /// 中风险问题数量。Number of medium-risk issues.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub medium_count: Option<i64>,
    /// 中风险问题忽略数量。Number of ignored medium-risk issues.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub medium_ignore_count: Option<i64>,
    /// 开启中问题数量。Number of open issues.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub open: Option<i64>,
}

impl CodeIssueSummary {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "critical_count",
        "critical_ignore_count",
        "enable",
        "high_count",
        "high_ignore_count",
        "ignored",
        "low_count",
        "low_ignore_count",
        "medium_count",
        "medium_ignore_count",
        "open",
    ];
}
