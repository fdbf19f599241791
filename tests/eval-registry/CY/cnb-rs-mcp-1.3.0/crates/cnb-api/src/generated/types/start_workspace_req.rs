use serde::{Deserialize, Serialize};

/// `StartWorkspaceReq`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct StartWorkspaceReq {
    /// 分支名或 tag 名，例如：main 或 v1.0.0。Branch or tag name, e.g. "main" or "v1.0.0".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub branch: Option<String>,
    /// Git ref，如 refs/heads/main 或 refs/tags/v1.0.0。Git ref, e.g. refs/heads/main or refs/tags/v1.0.0.
    #[serde(rename = "ref")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ref_: Option<String>,
}

impl StartWorkspaceReq {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["branch", "ref"];
}
