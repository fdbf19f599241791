use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// `StatusItem`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct StatusItem {
    /// 附加信息，如用量、token 等。Additional annotations such as usage/token.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub annotations: Option<HashMap<String, String>>,
    /// 上下文标识，通常为流水线名称。Context identifier, usually the pipeline name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context: Option<String>,
    /// 描述信息。Description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// 状态。枚举值：`success`,`pending`,`failure`,`error`,`skipped`。Status check result.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    /// 构建详情链接。Build detail link.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_url: Option<String>,
    /// 执行计划。Task plan.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tasks: Option<HashMap<String, String>>,
}

impl StatusItem {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "annotations",
        "context",
        "description",
        "state",
        "target_url",
        "tasks",
    ];
}
