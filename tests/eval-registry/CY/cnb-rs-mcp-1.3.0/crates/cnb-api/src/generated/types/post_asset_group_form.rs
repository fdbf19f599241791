use super::PostIssueAssetUploadURLForm;
use serde::{Deserialize, Serialize};

/// `PostAssetGroupForm`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct PostAssetGroupForm {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file_assets: Option<Vec<PostIssueAssetUploadURLForm>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub image_assets: Option<Vec<PostIssueAssetUploadURLForm>>,
}

impl PostAssetGroupForm {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["file_assets", "image_assets"];
}
