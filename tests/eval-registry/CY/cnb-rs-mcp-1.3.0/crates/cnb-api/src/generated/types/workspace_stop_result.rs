use serde::{Deserialize, Serialize};

/// `WorkspaceStopResult`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct WorkspaceStopResult {
    /// 表示停止的开发环境流水线日志地址。Pipeline log URL of the stopped dev environment.
    #[serde(rename = "buildLogUrl")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub build_log_url: Option<String>,
    /// 表示操作结果提示信息。Operation result message.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// 表示停止的开发环境流水线构建号。Pipeline build number of the stopped dev environment.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sn: Option<String>,
}

impl WorkspaceStopResult {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["buildLogUrl", "message", "sn"];
}
