use super::Forks;
use serde::{Deserialize, Serialize};

/// `ListForks`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct ListForks {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fork_tree_count: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forks: Option<Vec<Forks>>,
}

impl ListForks {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["fork_tree_count", "forks"];
}
