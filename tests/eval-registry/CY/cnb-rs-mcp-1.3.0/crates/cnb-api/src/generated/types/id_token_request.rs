use serde::{Deserialize, Serialize};

/// `IDTokenRequest`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct IDTokenRequest {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub aud: Option<String>,
}

impl IDTokenRequest {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["aud"];
}
