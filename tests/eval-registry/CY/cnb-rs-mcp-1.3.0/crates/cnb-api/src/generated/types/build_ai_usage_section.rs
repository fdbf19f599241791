use super::BuildAiUsageMetric;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// `BuildAiUsageSection`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct BuildAiUsageSection {
    /// 按模型名称拆分的指标明细，key 为模型名。Metrics grouped by model name (key: model).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub models: Option<HashMap<String, BuildAiUsageMetric>>,
    /// 所有模型的聚合指标。Aggregated metrics across all models.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total: Option<BuildAiUsageMetric>,
}

impl BuildAiUsageSection {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["models", "total"];
}
