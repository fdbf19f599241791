use serde::{Deserialize, Serialize};

/// `MergePullResponse`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct MergePullResponse {
    /// 是否成功合并。Whether merged successfully.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub merged: Option<bool>,
    /// 合并操作的响应消息。Merge operation response message.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// 合并提交的哈希值。Merge commit hash.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sha: Option<String>,
}

impl MergePullResponse {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["merged", "message", "sha"];
}
