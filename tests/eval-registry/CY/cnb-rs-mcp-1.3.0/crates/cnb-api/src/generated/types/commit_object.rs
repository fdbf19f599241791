use super::CommitObjectTree;
use super::CommitObjectVerification;
use super::Signature;
use serde::{Deserialize, Serialize};

/// `CommitObject`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct CommitObject {
    /// 提交的作者签名信息。Commit author signature.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub author: Option<Signature>,
    /// 提交的评论数量。Commit comment count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub comment_count: Option<i64>,
    /// 提交的提交者签名信息。Commit committer signature.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub committer: Option<Signature>,
    /// 提交的消息内容。Commit message.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// 提交对应的树对象信息。Tree object corresponding to the commit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tree: Option<CommitObjectTree>,
    /// 提交的验证信息。Commit verification information.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verification: Option<CommitObjectVerification>,
}

impl CommitObject {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "author",
        "comment_count",
        "committer",
        "message",
        "tree",
        "verification",
    ];
}
