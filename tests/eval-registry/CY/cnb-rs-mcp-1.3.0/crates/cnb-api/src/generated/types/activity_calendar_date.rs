use serde::{Deserialize, Serialize};

/// `ActivityCalendarDate`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct ActivityCalendarDate {
    /// 提交数。Commit count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commit_count: Option<i64>,
    /// 议题数。Issue count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub issues_count: Option<i64>,
    /// 合并请求数。Pull request count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pr_count: Option<i64>,
    /// 活跃度评分。Activity score.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
    /// 有效cr数，代码评审通过且对应的pr被合入。Valid CR count: code reviews passed and corresponding `PRs` merged.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub valid_cr_count: Option<i64>,
    /// 有效pr数，已被合入，且pr具有至少一个已通过的代码评审。Valid PR count: merged `PRs` with at least one approved code review.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub valid_pr_count: Option<i64>,
}

impl ActivityCalendarDate {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "commit_count",
        "issues_count",
        "pr_count",
        "score",
        "valid_cr_count",
        "valid_pr_count",
    ];
}
