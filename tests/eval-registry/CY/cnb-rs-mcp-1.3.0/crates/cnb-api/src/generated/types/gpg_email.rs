use serde::{Deserialize, Serialize};

/// `GPGEmail`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct GPGEmail {
    /// 邮箱。Email address.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    /// 是否已验证。Whether verified.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verified: Option<bool>,
}

impl GPGEmail {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["email", "verified"];
}
