use serde::{Deserialize, Serialize};

/// `RepoPatch`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct RepoPatch {
    /// 仓库描述。Repository description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// 仓库开源协议。Repository license.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub license: Option<String>,
    /// 仓库主页。Repository site.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub site: Option<String>,
    /// 仓库主题标签。Repository topic tags.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub topics: Option<Vec<String>>,
}

impl RepoPatch {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["description", "license", "site", "topics"];
}
