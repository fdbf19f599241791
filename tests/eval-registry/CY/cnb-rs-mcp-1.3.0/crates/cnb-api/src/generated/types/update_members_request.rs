use serde::{Deserialize, Serialize};

/// 更新成员角色和有效期的请求体，包含成员权限级别和是否外部协作者。 Update member role and expiry request body, including member access level and whether the member is an outside collaborator.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct UpdateMembersRequest {
    /// 成员权限级别。Member access level.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub access_level: Option<String>,
    /// 是否为外部协作者。Whether the member is an outside collaborator.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_outside_collaborator: Option<bool>,
}

impl UpdateMembersRequest {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["access_level", "is_outside_collaborator"];
}
