use serde::{Deserialize, Serialize};

/// `CreateBranchForm`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct CreateBranchForm {
    /// 新分支的名称。New branch name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// 新分支的起始点。格式：`分支名称`,`提交哈希`,`标签名称`。New branch starting point. Format: `branch_name`,`commit_hash`,`tag_name`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_point: Option<String>,
}

impl CreateBranchForm {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["name", "start_point"];
}
