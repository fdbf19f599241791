use serde::{Deserialize, Serialize};

/// `ApiRepo`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct ApiRepo {
    /// 仓库的唯一标识符。Repository unique identifier.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// 仓库名称。Repository name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// 仓库的路径标识符。Repository path identifier.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// 仓库的Web访问地址。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub web_url: Option<String>,
}

impl ApiRepo {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["id", "name", "path", "web_url"];
}
