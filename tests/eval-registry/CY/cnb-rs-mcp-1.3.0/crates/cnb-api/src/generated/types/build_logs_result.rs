use super::LogInfo;
use serde::{Deserialize, Serialize};

/// `BuildLogsResult`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct BuildLogsResult {
    /// 构建数据列表。Build data list.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data: Option<Vec<LogInfo>>,
    /// 当前时间戳。Current timestamp.
    ///
    /// MANUAL FIX: CNB 后端返回数字字符串而非 i64，使用 [`crate::serde_helpers::int_or_string`] 兼容。
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(deserialize_with = "crate::serde_helpers::int_or_string::deserialize")]
    pub timestamp: Option<i64>,
    /// 总数。Total.
    ///
    /// MANUAL FIX: CNB 后端返回数字字符串而非 i64，使用 [`crate::serde_helpers::int_or_string`] 兼容。
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(deserialize_with = "crate::serde_helpers::int_or_string::deserialize")]
    pub total: Option<i64>,
}

impl BuildLogsResult {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["data", "timestamp", "total"];
}
