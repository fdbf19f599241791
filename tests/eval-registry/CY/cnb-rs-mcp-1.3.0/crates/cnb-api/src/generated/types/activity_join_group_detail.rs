use super::OrganizationUnion;
use serde::{Deserialize, Serialize};

/// `ActivityJoinGroupDetail`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct ActivityJoinGroupDetail {
    /// 创建时间。Creation time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub create_at: Option<String>,
    /// 组织详情，组织被删后为 null。Org detail; null if the org was deleted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<OrganizationUnion>,
    /// 组织别名，组织被删除后才有值。Organization alias. Only has a value after the organization is deleted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remark: Option<String>,
}

impl ActivityJoinGroupDetail {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["create_at", "detail", "remark"];
}
