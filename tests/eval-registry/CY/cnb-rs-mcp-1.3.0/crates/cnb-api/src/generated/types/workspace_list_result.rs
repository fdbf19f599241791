use super::WorkspaceInfo;
use super::WorkspacePageInfo;
use serde::{Deserialize, Serialize};

/// `WorkspaceListResult`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct WorkspaceListResult {
    /// 是否有更多数据。Whether there is more data.
    #[serde(rename = "hasMore")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub has_more: Option<bool>,
    /// 云原生开发环境列表。Cloud native dev environment list.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub list: Option<Vec<WorkspaceInfo>>,
    /// 分页信息。Pagination info.
    #[serde(rename = "pageInfo")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_info: Option<WorkspacePageInfo>,
    /// 总数。Total.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total: Option<i64>,
}

impl WorkspaceListResult {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["hasMore", "list", "pageInfo", "total"];
}
