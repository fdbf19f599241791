use serde::{Deserialize, Serialize};

/// `RepoInfo`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct RepoInfo {
    /// 仓库ID。Repository ID.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// 仓库名称。Repository name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// 仓库路径。Repository path.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// 仓库Web访问地址。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub web_url: Option<String>,
}

impl RepoInfo {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["id", "name", "path", "web_url"];
}
