use serde::{Deserialize, Serialize};

/// Blob
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Blob {
    /// 提交的哈希值。Commit hash.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sha: Option<String>,
}

impl Blob {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["sha"];
}
