use super::GGUF;
use serde::{Deserialize, Serialize};

/// `DockerModelConfig`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct DockerModelConfig {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub architecture: Option<String>,
    /// 模型文件打包格式。Format the packaging format of the model file(s), currently the only supported value is gguf.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    /// 格式版本号。`FormatVersion` the version of the format.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub format_version: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gguf: Option<GGUF>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parameters: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub quantization: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<String>,
}

impl DockerModelConfig {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "architecture",
        "format",
        "format_version",
        "gguf",
        "parameters",
        "quantization",
        "size",
    ];
}
