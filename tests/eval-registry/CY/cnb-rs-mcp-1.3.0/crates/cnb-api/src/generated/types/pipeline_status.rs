use super::PipelineLabel;
use super::Stage;
use serde::{Deserialize, Serialize};

/// `PipelineStatus`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct PipelineStatus {
    /// 流水线耗时。Pipeline duration.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration: Option<i64>,
    /// 流水线 id。Pipeline ID.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// 流水线标签。Pipeline labels.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub labels: Option<Vec<PipelineLabel>>,
    /// 流水线计费核时。Pipeline billing core-hours.
    #[serde(rename = "metricCoreHours")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metric_core_hours: Option<f64>,
    /// 流水线计费耗时，单位：ms。Pipeline billing duration, unit: ms.
    #[serde(rename = "metricDuration")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metric_duration: Option<f64>,
    /// 流水线名称。Pipeline name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// 流水线各 stage 的状态
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stages: Option<Vec<Stage>>,
    /// 流水线状态。Pipeline status.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
}

impl PipelineStatus {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "duration",
        "id",
        "labels",
        "metricCoreHours",
        "metricDuration",
        "name",
        "stages",
        "status",
    ];
}
