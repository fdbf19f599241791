use serde::{Deserialize, Serialize};

/// `HeadRef`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct HeadRef {
    /// 分支名称。Branch name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// 分支是否是保护分支。Whether the branch is protected.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub protected: Option<bool>,
}

impl HeadRef {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["name", "protected"];
}
