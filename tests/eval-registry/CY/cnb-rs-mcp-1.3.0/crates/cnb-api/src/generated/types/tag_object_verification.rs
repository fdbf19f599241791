use serde::{Deserialize, Serialize};

/// `TagObjectVerification`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct TagObjectVerification {
    /// 签名的载荷数据。Signature payload data.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub payload: Option<String>,
    /// 验证结果的原因描述。Verification result reason description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// GPG签名内容。GPG signature content.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signature: Option<String>,
    /// 签名验证是否通过。Whether signature verification passed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verified: Option<bool>,
    /// 验证时间戳。Verification timestamp.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verified_at: Option<String>,
}

impl TagObjectVerification {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["payload", "reason", "signature", "verified", "verified_at"];
}
