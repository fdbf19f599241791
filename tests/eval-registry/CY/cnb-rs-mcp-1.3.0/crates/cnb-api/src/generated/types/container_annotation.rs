use serde::{Deserialize, Serialize};

/// `ContainerAnnotation`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct ContainerAnnotation {
    /// 修订号。Revision.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub revision: Option<String>,
    /// 序列号。Serial number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sn: Option<String>,
    /// 版本号。Version.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
}

impl ContainerAnnotation {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["revision", "sn", "version"];
}
