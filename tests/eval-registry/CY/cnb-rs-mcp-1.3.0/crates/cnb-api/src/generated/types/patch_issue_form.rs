use serde::{Deserialize, Serialize};

/// `PatchIssueForm`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct PatchIssueForm {
    /// Issue内容。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body: Option<String>,
    /// Issue结束日期。示例：`2026-12-30`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_date: Option<String>,
    /// 是否为私密 issue。Whether the issue is private.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invisible: Option<bool>,
    /// Issue优先级。可选值：`-2P`,`-1P`,`P0`,`P1`,`P2`,`P3`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub priority: Option<String>,
    /// Issue开始日期。示例：`2026-01-01`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_date: Option<String>,
    /// Issue状态。可选值：`open`,`closed`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    /// ISSUE状态变更原因。可选值：`completed`,`not_planned`,`reopened`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state_reason: Option<String>,
    /// Issue标题。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
}

impl PatchIssueForm {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "body",
        "end_date",
        "invisible",
        "priority",
        "start_date",
        "state",
        "state_reason",
        "title",
    ];
}
