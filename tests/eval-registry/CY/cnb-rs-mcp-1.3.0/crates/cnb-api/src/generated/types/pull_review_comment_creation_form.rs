use serde::{Deserialize, Serialize};

/// `PullReviewCommentCreationForm`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct PullReviewCommentCreationForm {
    /// 评论内容。Comment content.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body: Option<String>,
    /// 结束行号，`subject_type`=line时必填。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_line: Option<i64>,
    /// 评论结束位置的代码版本侧，`subject_type`=line时必填。可选值：`left`,`right`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_side: Option<String>,
    /// 文件路径。示例值：`src/main.go`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// 起始行号，`subject_type`=line时必填。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_line: Option<i64>,
    /// 评论起始位置的代码版本侧，`subject_type`=line时必填。可选值：`left`,`right`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_side: Option<String>,
    /// 评论对象类型，当`subject_type`为file时无需指定行号和侧别字段。可选值：`line`,`file`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subject_type: Option<String>,
}

impl PullReviewCommentCreationForm {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "body",
        "end_line",
        "end_side",
        "path",
        "start_line",
        "start_side",
        "subject_type",
    ];
}
