use serde::{Deserialize, Serialize};

/// `DtoDependency`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct DtoDependency {
    /// 依赖制品。Dependency artifact.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub artifact: Option<String>,
    /// 框架名。Framework name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub framework_name: Option<String>,
    /// 依赖名。Dependency name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

impl DtoDependency {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["artifact", "framework_name", "name"];
}
