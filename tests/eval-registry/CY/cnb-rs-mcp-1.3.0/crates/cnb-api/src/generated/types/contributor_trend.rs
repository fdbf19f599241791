use super::Author;
use super::Week;
use serde::{Deserialize, Serialize};

/// `ContributorTrend`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct ContributorTrend {
    /// 贡献者信息。Contributor information.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub author: Option<Author>,
    /// 贡献者的总提交数。 Total commits by the contributor.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commit_count: Option<i64>,
    /// 贡献者以周为单位的提交趋势数据。 Contributor weekly commit trend data.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub weeks: Option<Vec<Week>>,
}

impl ContributorTrend {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["author", "commit_count", "weeks"];
}
