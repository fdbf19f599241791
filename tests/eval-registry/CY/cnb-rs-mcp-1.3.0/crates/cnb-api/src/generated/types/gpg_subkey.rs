use serde::{Deserialize, Serialize};

/// `GPGSubkey`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct GPGSubkey {
    /// 子密钥添加时间。Subkey addition time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    /// 子密钥过期时间。Subkey expiration time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expired_at: Option<String>,
    /// 子密钥ID。Subkey ID.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// 子密钥 `KeyID`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key_id: Option<String>,
    /// 主密钥 ID。Primary key ID.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub primary_key_id: Option<String>,
}

impl GPGSubkey {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] =
        &["created_at", "expired_at", "id", "key_id", "primary_key_id"];
}
