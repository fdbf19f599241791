use super::CommitObject;
use super::CommitParent;
use super::UserInfo;
use serde::{Deserialize, Serialize};

/// Commit
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Commit {
    /// 提交的作者信息。Commit author info.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub author: Option<UserInfo>,
    /// 提交的详细信息。Commit detailed information.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commit: Option<CommitObject>,
    /// 提交的提交者信息。Commit committer information.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub committer: Option<UserInfo>,
    /// 父提交列表。Parent commit list.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parents: Option<Vec<CommitParent>>,
    /// 提交的哈希值。Commit hash.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sha: Option<String>,
}

impl Commit {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["author", "commit", "committer", "parents", "sha"];
}
