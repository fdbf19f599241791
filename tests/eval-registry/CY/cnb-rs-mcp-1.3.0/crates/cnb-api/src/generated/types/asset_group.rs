use super::IssueAssetUploadURL;
use serde::{Deserialize, Serialize};

/// `AssetGroup`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct AssetGroup {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub asset_group_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file_upload_urls: Option<Vec<IssueAssetUploadURL>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub image_upload_urls: Option<Vec<IssueAssetUploadURL>>,
}

impl AssetGroup {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["asset_group_id", "file_upload_urls", "image_upload_urls"];
}
