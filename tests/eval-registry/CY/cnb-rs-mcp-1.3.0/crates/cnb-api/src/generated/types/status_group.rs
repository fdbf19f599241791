use super::StatusItem;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// `StatusGroup`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct StatusGroup {
    /// Annotations 附加信息。Additional annotations.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub annotations: Option<HashMap<String, String>>,
    /// Context 白名单过滤后的安全上下文字段（如 `pipeline_id`/sn 等）。Whitelisted context fields.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context: Option<HashMap<String, String>>,
    /// Key 分类特有的标识信息，原样透出（如 npc 分类为 {"name":..., "slug":...}）。
    /// 采用 map 承载以保持分类无关，便于未来扩展。Category-specific identity, passed through as-is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<HashMap<String, String>>,
    /// Statuses 具体状态检查列表。Specific status check list.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub statuses: Option<Vec<StatusItem>>,
}

impl StatusGroup {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["annotations", "context", "key", "statuses"];
}
