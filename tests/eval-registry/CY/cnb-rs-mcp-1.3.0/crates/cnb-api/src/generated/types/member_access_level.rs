use super::AccessRole;
use serde::{Deserialize, Serialize};

/// 成员在对应资源上的权限，包含资源路径与权限级别。 Member access level on a resource, including resource path and access role.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct MemberAccessLevel {
    /// 权限级别。Access role.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub access_level: Option<AccessRole>,
    /// 资源路径。Resource path.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
}

impl MemberAccessLevel {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["access_level", "path"];
}
