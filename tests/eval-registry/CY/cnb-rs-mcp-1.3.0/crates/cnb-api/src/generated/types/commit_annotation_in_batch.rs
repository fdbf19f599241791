use super::CommitAnnotation;
use serde::{Deserialize, Serialize};

/// `CommitAnnotationInBatch`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct CommitAnnotationInBatch {
    /// 提交元数据列表。 Commit metadata list.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Vec<CommitAnnotation>>,
    /// 提交哈希值。 Commit hash.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commit_hash: Option<String>,
}

impl CommitAnnotationInBatch {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["annotations", "commit_hash"];
}
