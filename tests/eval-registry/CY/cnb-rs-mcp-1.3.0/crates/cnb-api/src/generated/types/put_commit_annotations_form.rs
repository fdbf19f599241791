use super::PutCommitAnnotation;
use serde::{Deserialize, Serialize};

/// `PutCommitAnnotationsForm`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct PutCommitAnnotationsForm {
    /// 提交元数据列表。Commit metadata list.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Vec<PutCommitAnnotation>>,
}

impl PutCommitAnnotationsForm {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["annotations"];
}
