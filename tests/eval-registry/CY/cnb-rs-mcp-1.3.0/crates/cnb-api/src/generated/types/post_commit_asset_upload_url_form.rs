use serde::{Deserialize, Serialize};

/// `PostCommitAssetUploadURLForm`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct PostCommitAssetUploadURLForm {
    /// 附件名称。Attachment name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub asset_name: Option<String>,
    /// 附件大小，单位为字节。 Attachment size, in bytes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<i64>,
    /// 附件存在时间，单位为天。Attachment retention time in days.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ttl: Option<i64>,
}

impl PostCommitAssetUploadURLForm {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["asset_name", "size", "ttl"];
}
