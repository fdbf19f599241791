use super::NpcPrRow;
use serde::{Deserialize, Serialize};

/// `NpcPrListResult`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct NpcPrListResult {
    /// 当前页数据，按 `create_time` DESC 排序。Items in current page, ordered by `create_time` DESC.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub items: Option<Vec<NpcPrRow>>,
    /// 当前页码，从 1 开始。Current page number, starting from 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    /// 当前分页大小。Current page size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_size: Option<i64>,
    /// 总条数；仅 page=1 时计算，翻页 total=0。Total count; only computed for page=1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total: Option<i64>,
}

impl NpcPrListResult {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["items", "page", "page_size", "total"];
}
