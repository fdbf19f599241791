use serde::{Deserialize, Serialize};

/// `PipelineLabel`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct PipelineLabel {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// label value 数组。
    ///
    /// MANUAL FIX: CNB 后端返回 mixed-type array（如 `["amd64"]` / `[32]` / `[64]`），
    /// 使用 [`crate::serde_helpers::string_array_lossy`] 把 number/bool/null 也 lossy 转 String。
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(deserialize_with = "crate::serde_helpers::string_array_lossy::deserialize")]
    pub value: Option<Vec<String>>,
}

impl PipelineLabel {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["key", "value"];
}
