use serde::{Deserialize, Serialize};

/// `GetCommitAnnotationsInBatchForm`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct GetCommitAnnotationsInBatchForm {
    /// 提交哈希值列表。 Commit hash list.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commit_hashes: Option<Vec<String>>,
    /// 元数据键列表。Metadata key list.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub keys: Option<Vec<String>>,
}

impl GetCommitAnnotationsInBatchForm {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["commit_hashes", "keys"];
}
