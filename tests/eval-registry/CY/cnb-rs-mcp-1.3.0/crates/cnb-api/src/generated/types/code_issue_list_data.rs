use super::CodeIssueRecord;
use serde::{Deserialize, Serialize};

/// `CodeIssueListData`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct CodeIssueListData {
    /// 问题列表。Issue list.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub list: Option<Vec<CodeIssueRecord>>,
}

impl CodeIssueListData {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["list"];
}
