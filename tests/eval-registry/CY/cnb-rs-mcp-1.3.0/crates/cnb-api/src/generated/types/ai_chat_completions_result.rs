use super::AiChatCompletionsChoice;
use serde::{Deserialize, Serialize};

/// `AiChatCompletionsResult`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct AiChatCompletionsResult {
    /// 选择。Choices.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub choices: Option<Vec<AiChatCompletionsChoice>>,
    /// 创建时间。Created at.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created: Option<i64>,
    /// ID。唯一标识。Unique identifier.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// 模型。Model.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// 对象。Object.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub object: Option<String>,
}

impl AiChatCompletionsResult {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["choices", "created", "id", "model", "object"];
}
