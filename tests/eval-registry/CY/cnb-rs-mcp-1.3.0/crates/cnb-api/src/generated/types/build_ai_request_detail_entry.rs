use serde::{Deserialize, Serialize};

/// `BuildAiRequestDetailEntry`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct BuildAiRequestDetailEntry {
    /// 请求体（超长会截断）。Request body (truncated if too long).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request_body: Option<String>,
    /// 请求头（JSON 字符串）。Request headers (JSON string).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request_headers: Option<String>,
    /// 请求 ID（UUID），与 AI 请求条目一一对应。Request ID (UUID), matches the corresponding AI request entry.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request_id: Option<String>,
    /// 响应体（超长截断；SSE 流仅保留尾部）。Response body (truncated; SSE keeps trailing part only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub response_body: Option<String>,
    /// 响应头（JSON 字符串）。Response headers (JSON string).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub response_headers: Option<String>,
}

impl BuildAiRequestDetailEntry {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "request_body",
        "request_headers",
        "request_id",
        "response_body",
        "response_headers",
    ];
}
