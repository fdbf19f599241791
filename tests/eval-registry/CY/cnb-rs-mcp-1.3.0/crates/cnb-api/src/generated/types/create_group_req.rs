use serde::{Deserialize, Serialize};

/// 创建组织的请求，包含组织路径、备注、描述与绑定域名。 Create organization request, including path, remark, description and bound domain.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct CreateGroupReq {
    /// `BindDomain` 根组织绑定的域名
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bind_domain: Option<String>,
    /// 组织描述。Organization description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// 组织路径。Organization path.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// 组织备注。Organization remark.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remark: Option<String>,
}

impl CreateGroupReq {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["bind_domain", "description", "path", "remark"];
}
