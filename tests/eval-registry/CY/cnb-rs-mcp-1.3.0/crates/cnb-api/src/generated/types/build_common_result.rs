use serde::{Deserialize, Serialize};

/// 删除流水线日志内容请求的结果，包含返回码与描述。 Result of deleting pipeline log content, including return code and description.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct BuildCommonResult {
    /// 返回码，0 表示成功，1 表示失败。Return code. 0 means success, 1 means failure.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<i64>,
    /// 描述。Description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

impl BuildCommonResult {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["code", "message"];
}
