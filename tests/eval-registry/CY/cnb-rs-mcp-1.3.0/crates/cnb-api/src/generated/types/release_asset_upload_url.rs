use serde::{Deserialize, Serialize};

/// `ReleaseAssetUploadURL`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct ReleaseAssetUploadURL {
    /// URL过期时间，单位为秒。URL expiration time in seconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expires_in_sec: Option<i64>,
    /// 附件上传URL。Attachment upload URL.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub upload_url: Option<String>,
    /// 附件上传确认验证URL。Attachment upload confirmation verification URL.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verify_url: Option<String>,
}

impl ReleaseAssetUploadURL {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["expires_in_sec", "upload_url", "verify_url"];
}
