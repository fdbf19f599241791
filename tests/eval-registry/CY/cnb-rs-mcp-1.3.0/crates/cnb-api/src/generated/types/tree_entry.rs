use serde::{Deserialize, Serialize};

/// `TreeEntry`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct TreeEntry {
    /// 对象名称（文件名或目录名）。Object name (file or directory name).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// 对象在仓库中的完整路径。Full path of the object in the repository.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// Git对象的哈希值。Git object hash.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sha: Option<String>,
    /// 对象类型。枚举值：`tree`,`blob`,`link`,`submodule`
    #[serde(rename = "type")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub type_: Option<String>,
}

impl TreeEntry {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["name", "path", "sha", "type"];
}
