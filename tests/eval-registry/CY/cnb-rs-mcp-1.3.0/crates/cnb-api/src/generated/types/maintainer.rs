use serde::{Deserialize, Serialize};

/// Maintainer
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Maintainer {
    /// Email is an optional email address to contact the named maintainer
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    /// Name is a user name or organization name
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// URL is an optional URL to an address for the named maintainer
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
}

impl Maintainer {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["email", "name", "url"];
}
