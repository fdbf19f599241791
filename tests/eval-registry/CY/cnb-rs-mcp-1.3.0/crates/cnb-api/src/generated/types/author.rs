use serde::{Deserialize, Serialize};

/// Author
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Author {
    /// 用户邮箱。User email.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    /// 用户名。Username.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub user_name: Option<String>,
}

impl Author {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["email", "user_name"];
}
