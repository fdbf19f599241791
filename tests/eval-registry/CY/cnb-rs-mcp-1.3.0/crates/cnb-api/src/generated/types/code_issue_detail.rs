use serde::{Deserialize, Serialize};

/// `CodeIssueDetail`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct CodeIssueDetail {
    /// 责任人邮箱（git 原始信息）。Responsible person email (raw git info).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub author_email: Option<String>,
    /// 责任人姓名（git 原始信息）。Responsible person name (raw git info).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub author_name: Option<String>,
    /// 问题创建时间。Issue created at.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    /// 问题描述。Issue description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// 规则展示名称。Rule display name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub display_name: Option<String>,
    /// 额外信息。Additional information.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extra_msg: Option<String>,
    /// 包含问题的文件路径。File path containing the issue.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file_path: Option<String>,
    /// 问题ID。Issue ID.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// 忽略时间。Ignored at.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ignored_at: Option<String>,
    /// 问题介绍。Issue introduction.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub introduce: Option<String>,
    /// 行号。 Line number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line_no: Option<i64>,
    /// 引入问题的commit。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub occur_version: Option<String>,
    /// 重新开启时间。Reopened at.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reopen_at: Option<String>,
    /// 仓库ID。Repository ID.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repo_id: Option<String>,
    /// 问题所在的commit。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub revision: Option<String>,
    /// 严重级别。Severity level.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub risk_level: Option<String>,
    /// 问题规则。Issue rule.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// 规则名称。Rule name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule_title: Option<String>,
    /// 问题状态（open/ignored）。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    /// 扫描工具。Scanning tool.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
}

impl CodeIssueDetail {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "author_email",
        "author_name",
        "created_at",
        "description",
        "display_name",
        "extra_msg",
        "file_path",
        "id",
        "ignored_at",
        "introduce",
        "line_no",
        "occur_version",
        "reopen_at",
        "repo_id",
        "revision",
        "risk_level",
        "rule",
        "rule_title",
        "state",
        "tool",
    ];
}
