use serde::{Deserialize, Serialize};

/// `PostBlobForm`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct PostBlobForm {
    /// Blob的内容。Blob content.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
    /// 内容的编码格式。可选值：`utf-8`,`base64`。Content encoding format. Options: `utf-8`, `base64`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub encoding: Option<String>,
}

impl PostBlobForm {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["content", "encoding"];
}
