use super::Message;
use serde::{Deserialize, Serialize};

/// `AiChatCompletionsChoice`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct AiChatCompletionsChoice {
    /// 结束原因。End reason.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub finish_reason: Option<String>,
    /// 索引。Index.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index: Option<i64>,
    /// 消息。Message.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<Message>,
}

impl AiChatCompletionsChoice {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["finish_reason", "index", "message"];
}
