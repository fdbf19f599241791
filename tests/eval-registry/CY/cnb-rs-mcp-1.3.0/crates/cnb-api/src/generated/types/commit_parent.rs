use serde::{Deserialize, Serialize};

/// `CommitParent`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct CommitParent {
    /// 父提交的哈希值。Parent commit hash.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sha: Option<String>,
}

impl CommitParent {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["sha"];
}
