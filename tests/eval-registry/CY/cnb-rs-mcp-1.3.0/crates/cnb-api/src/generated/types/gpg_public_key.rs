use super::GPGEmail;
use super::GPGSubkey;
use serde::{Deserialize, Serialize};

/// `GPGPublicKey`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct GPGPublicKey {
    /// 主密钥添加时间。Primary key addition time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    /// 邮箱。Email addresses.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub emails: Option<Vec<GPGEmail>>,
    /// 主密钥过期时间。Primary key expiration time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expired_at: Option<String>,
    /// 主密钥ID。Primary key ID.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// 公钥 `KeyID`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key_id: Option<String>,
    /// 标题。Title.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// PGP公钥文本
    #[serde(skip_serializing_if = "Option::is_none")]
    pub raw_key: Option<String>,
    /// 子密钥。Subkey.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subkeys: Option<Vec<GPGSubkey>>,
}

impl GPGPublicKey {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "created_at",
        "emails",
        "expired_at",
        "id",
        "key_id",
        "name",
        "raw_key",
        "subkeys",
    ];
}
