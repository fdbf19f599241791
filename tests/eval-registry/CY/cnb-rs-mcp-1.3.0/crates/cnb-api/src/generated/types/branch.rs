use serde::{Deserialize, Serialize};

/// Branch
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Branch {
    /// 分支指向的最新提交信息。Latest commit information for the branch.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commit: Option<serde_json::Value>,
    /// 分支是否被锁定。Whether the branch is locked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub locked: Option<bool>,
    /// 分支名称。Branch name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// 分支是否是保护分支。Whether the branch is protected.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub protected: Option<bool>,
}

impl Branch {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["commit", "locked", "name", "protected"];
}
