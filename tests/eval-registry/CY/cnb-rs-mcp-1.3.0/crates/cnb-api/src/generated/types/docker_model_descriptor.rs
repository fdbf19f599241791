use serde::{Deserialize, Serialize};

/// `DockerModelDescriptor`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct DockerModelDescriptor {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created: Option<String>,
}

impl DockerModelDescriptor {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["created"];
}
