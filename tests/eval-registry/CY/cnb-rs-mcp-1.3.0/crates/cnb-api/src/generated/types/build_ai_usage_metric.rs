use serde::{Deserialize, Serialize};

/// `BuildAiUsageMetric`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct BuildAiUsageMetric {
    /// 输出 token 数。Completion tokens.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub completion_tokens: Option<i64>,
    /// 消费额度（毫积分，原始值 × 1000）。Consumed credit in milli-credits.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub milli_credit: Option<i64>,
    /// 写入缓存的输入 token 数（`prompt_tokens` 的子集，与 Cached 互不重叠）。Cache-write prompt tokens.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prompt_cache_write_tokens: Option<i64>,
    /// 缓存命中（读）的输入 token 数（`prompt_tokens` 的子集）。Cache-hit prompt tokens (subset of `prompt_tokens`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prompt_cached_tokens: Option<i64>,
    /// 输入 token 数。Prompt tokens.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prompt_tokens: Option<i64>,
    /// 调用次数。Request count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request_count: Option<i64>,
    /// 思考 token 数。Thinking tokens.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub thinking_tokens: Option<i64>,
    /// 总 token 数（输入 + 输出）。Total tokens (prompt + completion).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total_tokens: Option<i64>,
}

impl BuildAiUsageMetric {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "completion_tokens",
        "milli_credit",
        "prompt_cache_write_tokens",
        "prompt_cached_tokens",
        "prompt_tokens",
        "request_count",
        "thinking_tokens",
        "total_tokens",
    ];
}
