use super::ActivitySlugDetail;
use super::Visibility;
use serde::{Deserialize, Serialize};

/// `ActivityRepoDetail`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct ActivityRepoDetail {
    /// 仓库路径详情，公仓转私仓或仓库被删除后为 null。Repo path detail; null if the repo was made private or deleted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<ActivitySlugDetail>,
    /// activity 发生时仓库的 path，这时的 path 是可以公开的
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exposed_repo_path: Option<String>,
    /// 仓库是否封禁。Whether the repository is banned.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub freeze: Option<bool>,
    /// 仓库是否不可访问（公仓转私仓或仓库被删除后不可访问）。Whether the repo is inaccessible (public→private or deleted).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repo_unaccessible: Option<bool>,
    /// 动态发生时间。Activity time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time: Option<f64>,
    /// 仓库可见性。Repository visibility.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub visibility_level: Option<Visibility>,
}

impl ActivityRepoDetail {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "detail",
        "exposed_repo_path",
        "freeze",
        "repo_unaccessible",
        "time",
        "visibility_level",
    ];
}
