use serde::{Deserialize, Serialize};

/// Stage
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Stage {
    /// stage 耗时。Stage duration.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration: Option<i64>,
    /// 阶段ID。Stage ID.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// stage 名称。Stage name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// stage 状态。Stage status.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
}

impl Stage {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["duration", "id", "name", "status"];
}
