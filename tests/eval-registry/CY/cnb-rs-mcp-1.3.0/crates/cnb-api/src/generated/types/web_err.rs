use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// Web API 错误响应体，包含错误码、错误信息和错误参数。 Web API error response body, including error code, error message and error params.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct WebErr {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub errcode: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub errmsg: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub errparam: Option<HashMap<String, serde_json::Value>>,
}

impl WebErr {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["errcode", "errmsg", "errparam"];
}
