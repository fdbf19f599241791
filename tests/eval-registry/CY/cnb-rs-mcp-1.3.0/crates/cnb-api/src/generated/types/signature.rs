use serde::{Deserialize, Serialize};

/// Signature
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Signature {
    /// 签名时间。Signature time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    /// 签名者邮箱。Signer email.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    /// 签名者姓名。Signer name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

impl Signature {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["date", "email", "name"];
}
