use serde::{Deserialize, Serialize};

/// `RankLanguageList`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct RankLanguageList {
    /// 统计日期。Statistics date.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    /// 语言列表。Language list.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub language: Option<Vec<String>>,
    /// 排行榜类型。Rank type.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rank_type: Option<String>,
}

impl RankLanguageList {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["date", "language", "rank_type"];
}
