use super::VcsBffApiCommitStatus;
use serde::{Deserialize, Serialize};

/// `CommitStatuses`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct CommitStatuses {
    /// 提交的哈希值。Commit hash.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sha: Option<String>,
    /// 整体提交状态。Overall commit status.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    /// 具体的提交状态检查列表。Specific commit status check list.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub statuses: Option<Vec<VcsBffApiCommitStatus>>,
}

impl CommitStatuses {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["sha", "state", "statuses"];
}
