use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// 资源信息，包含资源路径、内容类型与上传请求参数。 Asset info, including resource path, content type and upload request params.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Assets {
    /// 资源内容类型。Resource content type.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content_type: Option<String>,
    /// 文件扩展信息。File extension info.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ext: Option<HashMap<String, String>>,
    /// 文件名。File name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// 资源路径。Resource path.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// 文件大小。File size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<i64>,
}

impl Assets {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["content_type", "ext", "name", "path", "size"];
}
