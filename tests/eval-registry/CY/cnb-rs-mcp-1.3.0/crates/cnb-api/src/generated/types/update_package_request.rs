use serde::{Deserialize, Serialize};

/// `UpdatePackageRequest`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct UpdatePackageRequest {
    /// 制品描述，长度不超过 100 个字符。The description of the package, max length 100.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

impl UpdatePackageRequest {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["description"];
}
