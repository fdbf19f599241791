use serde::{Deserialize, Serialize};

/// `BuildPipelineInfo`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct BuildPipelineInfo {
    /// 流水线开始时间。Pipeline start time.
    #[serde(rename = "createTime")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub create_time: Option<String>,
    /// 流水线耗时，单位：ms。Pipeline duration, unit: ms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration: Option<i64>,
    /// 流水线 ID。Pipeline ID.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// 流水线标签。Pipeline labels.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub labels: Option<String>,
    /// 流水线状态。Pipeline status.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
}

impl BuildPipelineInfo {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["createTime", "duration", "id", "labels", "status"];
}
