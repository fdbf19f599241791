use serde::{Deserialize, Serialize};

/// `BuildStageResult`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct BuildStageResult {
    /// stage 日志内容，数组格式，一个元素表示一行日志
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content: Option<Vec<String>>,
    /// stage 耗时，单位：ms
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration: Option<i64>,
    /// stage 结束时间
    #[serde(rename = "endTime")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_time: Option<i64>,
    /// stage 错误信息
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// 阶段ID。Stage ID.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// stage 名称
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// stage 开始时间
    #[serde(rename = "startTime")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_time: Option<i64>,
    /// stage 状态:  "pending", "start", "success", "error", "cancel", "skipped"
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
}

impl BuildStageResult {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "content",
        "duration",
        "endTime",
        "error",
        "id",
        "name",
        "startTime",
        "status",
    ];
}
