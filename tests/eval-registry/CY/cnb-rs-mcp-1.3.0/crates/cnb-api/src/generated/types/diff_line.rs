use serde::{Deserialize, Serialize};

/// `DiffLine`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct DiffLine {
    /// 实际内容文本。Actual content text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
    /// 左侧（原版本）的行号。Left (original) line number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub left_line_number: Option<i64>,
    /// 差异行的前缀符号。Diff line prefix symbol.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prefix: Option<String>,
    /// 右侧（新版本）的行号。Right (new version) line number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub right_line_number: Option<i64>,
    /// 枚举值：`context`,`addition`,`deletion`,`context_eofnl`,`add_eofnl`,`del_eofnl`,`file_header`,`hunk_header`,`binary`
    #[serde(rename = "type")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub type_: Option<String>,
}

impl DiffLine {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "content",
        "left_line_number",
        "prefix",
        "right_line_number",
        "type",
    ];
}
