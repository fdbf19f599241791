use super::ApiRepo;
use serde::{Deserialize, Serialize};

/// `PullRef`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct PullRef {
    /// 分支引用名称。示例值：`refs/heads/main`
    #[serde(rename = "ref")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ref_: Option<String>,
    /// 关联的仓库信息。Associated repository info.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repo: Option<ApiRepo>,
    /// 提交哈希值。Commit hash.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sha: Option<String>,
}

impl PullRef {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["ref", "repo", "sha"];
}
