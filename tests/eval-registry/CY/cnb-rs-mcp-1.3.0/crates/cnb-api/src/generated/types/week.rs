use serde::{Deserialize, Serialize};

/// Week
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Week {
    /// 每周增加的行数。 Number of lines added per week.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub a: Option<i64>,
    /// 每周的提交数量。 Number of commits per week.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub c: Option<i64>,
    /// 每周删除的行数。 Number of lines deleted per week.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub d: Option<i64>,
    /// 周的时间戳。Week timestamp.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub w: Option<i64>,
}

impl Week {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["a", "c", "d", "w"];
}
