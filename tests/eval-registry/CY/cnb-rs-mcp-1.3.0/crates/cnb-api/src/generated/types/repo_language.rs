use serde::{Deserialize, Serialize};

/// `RepoLanguage`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct RepoLanguage {
    /// 语言展示颜色。Language display color.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub color: Option<String>,
    /// 语言名称。Language name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
}

impl RepoLanguage {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["color", "language"];
}
