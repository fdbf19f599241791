use serde::{Deserialize, Serialize};

/// `SkillScanOverview`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct SkillScanOverview {
    /// 是否开启技能扫描。Whether skill scanning is enabled.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enable: Option<bool>,
    /// 高危子文件数 (`threat_level`=4)
    #[serde(skip_serializing_if = "Option::is_none")]
    pub high_risk_cnt: Option<i64>,
    /// 低危子文件数 (`threat_level`=2)
    #[serde(skip_serializing_if = "Option::is_none")]
    pub low_risk_cnt: Option<i64>,
    /// 中危子文件数 (`threat_level`=3)
    #[serde(skip_serializing_if = "Option::is_none")]
    pub medium_risk_cnt: Option<i64>,
}

impl SkillScanOverview {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] =
        &["enable", "high_risk_cnt", "low_risk_cnt", "medium_risk_cnt"];
}
