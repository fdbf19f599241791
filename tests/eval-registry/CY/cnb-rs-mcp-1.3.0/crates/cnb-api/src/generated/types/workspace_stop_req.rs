use serde::{Deserialize, Serialize};

/// `WorkspaceStopReq`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct WorkspaceStopReq {
    /// 要停止的流水线 id，与 sn 二选一。Pipeline ID to stop; Sn or `PipelineID`.
    #[serde(rename = "pipelineId")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pipeline_id: Option<String>,
    /// 要停止的流水线构建号，与 `pipelineId` 二选一。Build number to stop; Sn or `PipelineID`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sn: Option<String>,
}

impl WorkspaceStopReq {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["pipelineId", "sn"];
}
