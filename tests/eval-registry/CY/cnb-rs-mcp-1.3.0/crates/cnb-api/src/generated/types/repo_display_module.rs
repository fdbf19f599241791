use serde::{Deserialize, Serialize};

/// `RepoDisplayModule`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct RepoDisplayModule {
    /// 仓库动态。Repository activity.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub activity: Option<bool>,
    /// 仓库贡献者。Repository contributors.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contributors: Option<bool>,
    /// 仓库版本。Repository releases.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub release: Option<bool>,
}

impl RepoDisplayModule {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["activity", "contributors", "release"];
}
