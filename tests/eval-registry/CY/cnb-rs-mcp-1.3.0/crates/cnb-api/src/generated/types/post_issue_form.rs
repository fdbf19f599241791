use serde::{Deserialize, Serialize};

/// `PostIssueForm`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct PostIssueForm {
    /// Issue处理人列表，最大限制为8。示例：`["处理人1","处理人2"]`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub assignees: Option<Vec<String>>,
    /// Issue内容。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body: Option<String>,
    /// Issue结束日期。示例：`2026-12-30`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_date: Option<String>,
    /// 是否为私密 issue。Whether the issue is private.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invisible: Option<bool>,
    /// Issue标签列表，最大限制为10。示例：`["标签1","标签2"]`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub labels: Option<Vec<String>>,
    /// Issue优先级。可选值：`-2P`,`-1P`,`P0`,`P1`,`P2`,`P3`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub priority: Option<String>,
    /// Issue开始日期。示例：`2026-01-01`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_date: Option<String>,
    /// Issue标题。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// 是否开启工作模式。Whether work mode is enabled.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub work_mode: Option<bool>,
}

impl PostIssueForm {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "assignees",
        "body",
        "end_date",
        "invisible",
        "labels",
        "priority",
        "start_date",
        "title",
        "work_mode",
    ];
}
