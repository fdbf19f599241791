use serde::{Deserialize, Serialize};

/// `PullCreationForm`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct PullCreationForm {
    /// 目标分支名称。 Target branch name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub base: Option<String>,
    /// 合并请求内容。Merge request content.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body: Option<String>,
    /// 源分支名称。 Source branch name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub head: Option<String>,
    /// 源分支所在的仓库标识。示例值：`owner/repo`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub head_repo: Option<String>,
    /// 合并请求标题。Merge request title.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
}

impl PullCreationForm {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["base", "body", "head", "head_repo", "title"];
}
