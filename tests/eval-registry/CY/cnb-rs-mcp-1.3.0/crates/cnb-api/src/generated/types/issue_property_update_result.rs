use serde::{Deserialize, Serialize};

/// `IssuePropertyUpdateResult`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct IssuePropertyUpdateResult {
    /// 更新失败的属性数量。Number of properties that failed to update.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failed_count: Option<i64>,
    /// 更新失败的属性key列表，仅当存在失败时返回
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failed_keys: Option<Vec<String>>,
    /// 更新成功的属性数量。Number of properties that updated successfully.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub success_count: Option<i64>,
}

impl IssuePropertyUpdateResult {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["failed_count", "failed_keys", "success_count"];
}
