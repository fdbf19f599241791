use super::Commit;
use serde::{Deserialize, Serialize};

/// `BranchDetail`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct BranchDetail {
    /// 分支指向的最新提交信息。Latest commit of the branch.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commit: Option<Commit>,
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

impl BranchDetail {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["commit", "locked", "name", "protected"];
}
