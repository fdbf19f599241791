use super::Badge;
use serde::{Deserialize, Serialize};

/// `ListBadgeResult`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct ListBadgeResult {
    /// 徽章列表。Badge list.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub badges: Option<Vec<Badge>>,
}

impl ListBadgeResult {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["badges"];
}
