use serde::{Deserialize, Serialize};

/// `UpdateGroupReq`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct UpdateGroupReq {
    /// 组织描述。Organization description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// 组织绑定域名。Bound domain of the organization.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub domain: Option<String>,
    /// 组织邮箱。Organization email.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    /// 用于展示 README 的仓库 ID。Repository ID used for displaying README.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub readme_repo_id: Option<i64>,
    /// 用于展示 README 的仓库路径。Repository path used for displaying README.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub readme_repo_path: Option<String>,
    /// 组织备注。Organization remark.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remark: Option<String>,
    /// 组织主页。Organization site.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub site: Option<String>,
    /// 组织微信公众号。Organization `WeChat` official account.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wechat_mp: Option<String>,
}

impl UpdateGroupReq {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "description",
        "domain",
        "email",
        "readme_repo_id",
        "readme_repo_path",
        "remark",
        "site",
        "wechat_mp",
    ];
}
