use super::BuildAiUsageSection;
use serde::{Deserialize, Serialize};

/// `BuildAiAuditResult`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct BuildAiAuditResult {
    /// 返回码，0 表示成功。Return code. 0 means success.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<i64>,
    /// AI 用量聚合数据。AI usage aggregated data.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content: Option<BuildAiUsageSection>,
    /// 每页条数，0 表示无记录。Page size; 0 means no records.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request_log_page_size: Option<i64>,
    /// AI 请求日志总页数，0 表示无记录。Total pages; 0 means no records.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request_log_pages: Option<i64>,
}

impl BuildAiAuditResult {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "code",
        "content",
        "request_log_page_size",
        "request_log_pages",
    ];
}
