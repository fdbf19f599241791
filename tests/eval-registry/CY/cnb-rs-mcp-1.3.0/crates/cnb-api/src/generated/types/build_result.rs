use serde::{Deserialize, Serialize};

/// 构建触发结果，包含构建号、构建链接、信息与是否触发成功。 Build trigger result, including build number, build URL, message and trigger success status.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct BuildResult {
    /// 构建链接。Build URL.
    #[serde(rename = "buildLogUrl")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub build_log_url: Option<String>,
    /// 构建信息。Build information.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// 构建号。Build number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sn: Option<String>,
    /// 构建是否触发成功，不代表构建结果。Whether the build was triggered successfully. Does not indicate build result.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub success: Option<bool>,
}

impl BuildResult {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["buildLogUrl", "message", "sn", "success"];
}
