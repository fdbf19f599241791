use serde::{Deserialize, Serialize};

/// `IDTokenResponse`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct IDTokenResponse {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id_token: Option<String>,
}

impl IDTokenResponse {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["id_token"];
}
