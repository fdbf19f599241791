use serde::{Deserialize, Serialize};

/// `BuildAiRequestEntry`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct BuildAiRequestEntry {
    /// 输出 token 数。Completion tokens.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub completion_tokens: Option<i64>,
    /// 生效折扣，取值 [0, 1]；缺省表示无折扣。Applied discount in [0, 1]; omitted if none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub discount: Option<f64>,
    /// 失败原因（success=false 时填充）。Failure reason (when success=false).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failure_reason: Option<String>,
    /// 是否可通过 ai-request-detail 拉取详情。Whether detail is fetchable.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub has_detail: Option<bool>,
    /// 消费额度（毫积分，已应用折扣）。Billed credit in milli-credits (post-discount).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub milli_credit: Option<i64>,
    /// 模型名称。Model name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// 折前原始消费额度，仅打折时返回。Pre-discount credit; present only when discounted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub original_milli_credit: Option<i64>,
    /// 写入缓存的输入 token 数（与 Cached 互不重叠）。Cache-write prompt tokens.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prompt_cache_write_tokens: Option<i64>,
    /// 缓存命中（读）的输入 token 数。Cache-hit prompt tokens.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prompt_cached_tokens: Option<i64>,
    /// 输入 token 数。Prompt tokens.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prompt_tokens: Option<i64>,
    /// 请求 ID（UUID）。Request ID (UUID).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request_id: Option<String>,
    /// 请求路径。Request path.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request_path: Option<String>,
    /// 响应结束耗时（ms）。Response end duration in ms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub response_end_duration_ms: Option<i64>,
    /// 响应开始耗时（ms，TTFB 近似）。Response start duration in ms (~TTFB).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub response_start_duration_ms: Option<i64>,
    /// 上游 HTTP 状态码，0 表示未收到响应。Upstream status code; 0 = no response.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status_code: Option<i64>,
    /// 是否成功（上游 2xx 且 usage 解析成功）。Whether request succeeded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub success: Option<bool>,
    /// 思考 token 数。Thinking tokens.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub thinking_tokens: Option<i64>,
    /// 请求时间（ISO 8601）。Request time (ISO 8601).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<String>,
    /// 总 token 数。Total tokens.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total_tokens: Option<i64>,
}

impl BuildAiRequestEntry {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "completion_tokens",
        "discount",
        "failure_reason",
        "has_detail",
        "milli_credit",
        "model",
        "original_milli_credit",
        "prompt_cache_write_tokens",
        "prompt_cached_tokens",
        "prompt_tokens",
        "request_id",
        "request_path",
        "response_end_duration_ms",
        "response_start_duration_ms",
        "status_code",
        "success",
        "thinking_tokens",
        "timestamp",
        "total_tokens",
    ];
}
