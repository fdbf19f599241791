use serde::{Deserialize, Serialize};

/// `WorkspaceDeleteResult`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct WorkspaceDeleteResult {
    /// 返回码，0 表示成功，1 表示失败。Return code. 0 means success, 1 means failure.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<i64>,
    /// 描述。Description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

impl WorkspaceDeleteResult {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["code", "message"];
}
