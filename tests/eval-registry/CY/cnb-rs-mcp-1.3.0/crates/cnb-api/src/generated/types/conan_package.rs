use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// `ConanPackage`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct ConanPackage {
    /// 架构。Architecture.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub arch: Option<String>,
    /// 构建类型。Build type.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub build_type: Option<String>,
    /// 编译器。Compiler.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compiler: Option<HashMap<String, String>>,
    /// 选项。Options.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub options: Option<HashMap<String, String>>,
    /// 操作系统。Operating system.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub os: Option<String>,
    /// 包 ID。Package ID.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub package_id: Option<String>,
    /// 包修订号。Package revision.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub package_revision: Option<String>,
    /// 依赖项。Requires.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub requires: Option<Vec<String>>,
}

impl ConanPackage {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "arch",
        "build_type",
        "compiler",
        "options",
        "os",
        "package_id",
        "package_revision",
        "requires",
    ];
}
