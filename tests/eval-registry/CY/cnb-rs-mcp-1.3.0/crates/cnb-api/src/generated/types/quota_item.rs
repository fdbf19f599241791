use serde::{Deserialize, Serialize};

/// `QuotaItem`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct QuotaItem {
    /// 免费额度（仅免费额度）。Free quota (free quota only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub free: Option<i64>,
    /// 总额度（含免费额度、付费、特权额度等）。Total quota (including free, paid, and privilege quotas).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total: Option<i64>,
}

impl QuotaItem {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["free", "total"];
}
