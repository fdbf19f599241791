use serde::{Deserialize, Serialize};

/// `IssueConfig`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct IssueConfig {
    /// 逗号分隔的排除标签字符串。Comma-separated excluded tags string.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exclude_labels: Option<String>,
    /// 逗号分隔的标签字符串，如 "bug,feature"
    #[serde(skip_serializing_if = "Option::is_none")]
    pub labels: Option<String>,
    /// Issue 状态。Issue state. Values: "open", "closed".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
}

impl IssueConfig {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["exclude_labels", "labels", "state"];
}
