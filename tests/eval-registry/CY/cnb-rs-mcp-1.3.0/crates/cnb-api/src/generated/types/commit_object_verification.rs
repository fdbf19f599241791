use serde::{Deserialize, Serialize};

/// `CommitObjectVerification`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct CommitObjectVerification {
    /// 验证负载数据。Verification payload data.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub payload: Option<String>,
    /// 验证结果的原因。Verification result reason.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// 签名信息。Signature information.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signature: Option<String>,
    /// 提交是否已验证。Whether the commit is verified.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verified: Option<bool>,
    /// 验证时间。Verification time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verified_at: Option<String>,
}

impl CommitObjectVerification {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["payload", "reason", "signature", "verified", "verified_at"];
}
