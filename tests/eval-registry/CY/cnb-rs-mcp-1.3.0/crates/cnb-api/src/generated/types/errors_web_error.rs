use serde::{Deserialize, Serialize};

/// Web API 错误信息，包含错误码和错误信息。 Web API error info, including error code and error message.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct ErrorsWebError {
    /// 错误码。Error code.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub errcode: Option<i64>,
    /// 错误信息。Error message.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub errmsg: Option<String>,
}

impl ErrorsWebError {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["errcode", "errmsg"];
}
