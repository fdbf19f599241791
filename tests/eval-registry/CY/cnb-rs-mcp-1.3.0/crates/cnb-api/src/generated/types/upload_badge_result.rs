use serde::{Deserialize, Serialize};

/// `UploadBadgeResult`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct UploadBadgeResult {
    /// latest 对应的徽章 url 地址。如果没有传 latest: true，则该字段为空字符串。Badge URL for latest; empty string if latest: true was not set.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub latest_url: Option<String>,
    /// commitid 对应的徽章 url 地址。Badge URL for the commit id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
}

impl UploadBadgeResult {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["latest_url", "url"];
}
