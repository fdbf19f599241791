use serde::{Deserialize, Serialize};

/// `PutPullLabelsForm`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct PutPullLabelsForm {
    /// 合并请求的标签列表。Merge request tag list.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub labels: Option<Vec<String>>,
}

impl PutPullLabelsForm {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["labels"];
}
