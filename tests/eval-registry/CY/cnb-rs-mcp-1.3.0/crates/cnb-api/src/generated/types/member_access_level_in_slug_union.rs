use super::AccessRole;
use serde::{Deserialize, Serialize};

/// 资源里面的成员以及权限，包含权限级别与读写/继承权限。 Member and access level in resource, including access role and read/write/inherit privileges.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct MemberAccessLevelInSlugUnion {
    /// 权限级别。Access role.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub access_level: Option<AccessRole>,
    /// 是否为继承权限。Whether inherited.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub inherit: Option<bool>,
    /// 是否可读。Whether readable.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub read_privilege: Option<bool>,
    /// 是否可写。Whether writable.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub write_privilege: Option<bool>,
}

impl MemberAccessLevelInSlugUnion {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "access_level",
        "inherit",
        "read_privilege",
        "write_privilege",
    ];
}
