use serde::{Deserialize, Serialize};

/// `StartWorkspaceResult`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct StartWorkspaceResult {
    /// 仅新创建开发环境时返回，表示创建开发环境的流水线日志地址。Pipeline log URL, only returned when newly created.
    #[serde(rename = "buildLogUrl")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub build_log_url: Option<String>,
    /// 仅新创建开发环境时返回，表示创建开发环境的提示信息。Prompt message, only returned when newly created.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// 仅新创建开发环境时返回，表示创建开发环境的流水线 sn。Pipeline SN, only returned when a new dev environment is created.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sn: Option<String>,
    /// 有环境返回 `WebIDE` url，否则返回启动 loading 页。`WebIDE` URL if env exists, else loading page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
}

impl StartWorkspaceResult {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["buildLogUrl", "message", "sn", "url"];
}
