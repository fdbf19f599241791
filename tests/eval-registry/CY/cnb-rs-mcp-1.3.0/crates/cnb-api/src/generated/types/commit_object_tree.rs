use serde::{Deserialize, Serialize};

/// `CommitObjectTree`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct CommitObjectTree {
    /// 树对象的哈希值。Tree object hash.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sha: Option<String>,
}

impl CommitObjectTree {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["sha"];
}
