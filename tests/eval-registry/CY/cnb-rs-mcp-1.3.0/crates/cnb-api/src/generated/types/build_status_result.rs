use super::BuildLogNpc;
use super::PipelineStatus;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// `BuildStatusResult`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct BuildStatusResult {
    /// 发起该构建的 NPC 信息（若由 NPC 触发）。NPC info that triggered this build (if any).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub npc: Option<BuildLogNpc>,
    /// 流水线的状态。Pipeline status.
    #[serde(rename = "pipelinesStatus")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pipelines_status: Option<HashMap<String, PipelineStatus>>,
    /// 构建状态。Build status.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
}

impl BuildStatusResult {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["npc", "pipelinesStatus", "status"];
}
