use super::Commit;
use super::CommitDiffFilePatch;
use serde::{Deserialize, Serialize};

/// `CompareResponse`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct CompareResponse {
    /// 基准对比提交。Base comparison commit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub base_commit: Option<Commit>,
    /// 提交列表。Commit list.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commits: Option<Vec<Commit>>,
    /// 文件差异列表。File diff list.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub files: Option<Vec<CommitDiffFilePatch>>,
    /// 源分支最新提交。 Source branch latest commit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub head_commit: Option<Commit>,
    /// 共同祖先提交。Common ancestor commit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub merge_base_commit: Option<Commit>,
    /// 总提交数。Total commit count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total_commits: Option<i64>,
}

impl CompareResponse {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "base_commit",
        "commits",
        "files",
        "head_commit",
        "merge_base_commit",
        "total_commits",
    ];
}
