use super::ContributorTrend;
use super::Meta;
use super::Week;
use serde::{Deserialize, Serialize};

/// `RepoContribTrend`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct RepoContribTrend {
    /// 元数据信息，包含生成分支、哈希和时间戳。Metadata information, including generation branch, hash, and timestamp.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
    /// 仓库级别的周度统计数据。Weekly statistics for the repository.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repo_data: Option<Vec<Week>>,
    /// 贡献者总数。Total contributors.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub user_total: Option<i64>,
    /// 贡献者级别的趋势数据，按提交数排序。Contributor-level trend data, sorted by commit count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub users_data: Option<Vec<ContributorTrend>>,
    /// 统计的周总数。Total number of weeks in the statistics.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub week_total: Option<i64>,
    /// 是否统计增删的行数，默认总提交超过10000的仓库不统计。Count added/deleted lines. Off for repos >10000 commits.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub with_line_counts: Option<bool>,
}

impl RepoContribTrend {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "meta",
        "repo_data",
        "user_total",
        "users_data",
        "week_total",
        "with_line_counts",
    ];
}
