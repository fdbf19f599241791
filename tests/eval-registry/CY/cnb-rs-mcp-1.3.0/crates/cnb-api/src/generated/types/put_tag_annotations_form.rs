use super::PutTagAnnotation;
use serde::{Deserialize, Serialize};

/// `PutTagAnnotationsForm`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct PutTagAnnotationsForm {
    /// 设置tag元数据列表信息。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Vec<PutTagAnnotation>>,
}

impl PutTagAnnotationsForm {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["annotations"];
}
