use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// 上传请求参数，包含文件名、文件大小和扩展信息。 Upload request params, including file name, file size and extension info.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct UploadRequestParams {
    /// 文件扩展信息。File extension info.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ext: Option<HashMap<String, String>>,
    /// 文件名。File name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// 文件大小。File size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<i64>,
}

impl UploadRequestParams {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["ext", "name", "size"];
}
