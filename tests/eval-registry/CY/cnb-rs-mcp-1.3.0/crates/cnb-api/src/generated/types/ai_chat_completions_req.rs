use super::Message;
use serde::{Deserialize, Serialize};

/// `AiChatCompletionsReq`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct AiChatCompletionsReq {
    /// 对话内容。Conversation content.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub messages: Option<Vec<Message>>,
    /// 模型名称。Model name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// 是否流式返回结果，部分模型可能不支持非流式。Whether to stream results. Some models may not support non-streaming.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stream: Option<bool>,
}

impl AiChatCompletionsReq {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["messages", "model", "stream"];
}
