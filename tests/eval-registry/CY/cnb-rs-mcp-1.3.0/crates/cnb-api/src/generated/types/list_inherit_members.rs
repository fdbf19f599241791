use super::InheritMembersUser;
use serde::{Deserialize, Serialize};

/// slug 继承成员列表，包含继承来源路径、总数与用户列表。 Inherited member list of a slug, including inherit path, total count and user list.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct ListInheritMembers {
    /// 继承来源路径。Inherit source path.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub inherit_path: Option<String>,
    /// 成员总数。Total member count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total: Option<i64>,
    /// 成员用户列表。Member user list.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub users: Option<Vec<InheritMembersUser>>,
}

impl ListInheritMembers {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["inherit_path", "total", "users"];
}
