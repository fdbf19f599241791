use serde::{Deserialize, Serialize};

/// `CodeIssueRecord`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct CodeIssueRecord {
    /// 责任人邮箱（git 原始信息）。Responsible person email (raw git info).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub author_email: Option<String>,
    /// 责任人姓名（git 原始信息）。Responsible person name (raw git info).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub author_name: Option<String>,
    /// 问题创建时间。Issue created at.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    /// 规则展示名称。Rule display name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub display_name: Option<String>,
    /// 包含问题的文件路径。File path containing the issue.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file_path: Option<String>,
    /// 问题ID。Issue ID.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// 行号。 Line number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line_no: Option<i64>,
    /// 引入问题的commit。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub occur_version: Option<String>,
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
    /// 扫描工具。Scanning tool.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
}

impl CodeIssueRecord {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "author_email",
        "author_name",
        "created_at",
        "display_name",
        "file_path",
        "id",
        "line_no",
        "occur_version",
        "repo_id",
        "revision",
        "risk_level",
        "rule",
        "rule_title",
        "tool",
    ];
}
