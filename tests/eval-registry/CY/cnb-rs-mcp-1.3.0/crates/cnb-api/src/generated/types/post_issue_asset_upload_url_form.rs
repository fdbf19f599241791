use serde::{Deserialize, Serialize};

/// `PostIssueAssetUploadURLForm`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct PostIssueAssetUploadURLForm {
    /// 文件类型。File type.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content_type: Option<String>,
    /// 文件名。必填。File name (required).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// 文件大小，单位：字节。必须大于 0。File size in bytes. Must be greater than 0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<i64>,
}

impl PostIssueAssetUploadURLForm {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["content_type", "name", "size"];
}
