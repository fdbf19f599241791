use super::SlugType;
use serde::{Deserialize, Serialize};

/// Slugs
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Slugs {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub freeze: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resource_id: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resource_type: Option<SlugType>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub root_freeze: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub root_id: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_at: Option<String>,
}

impl Slugs {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "created_at",
        "freeze",
        "path",
        "resource_id",
        "resource_type",
        "root_freeze",
        "root_id",
        "updated_at",
    ];
}
