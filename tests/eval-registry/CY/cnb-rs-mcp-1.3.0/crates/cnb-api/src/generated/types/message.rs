use serde::{Deserialize, Serialize};

/// Message
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Message {
    /// 内容。Content.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
    /// 角色，可选值：user、assistant。Role, values: user, assistant.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
}

impl Message {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["content", "role"];
}
