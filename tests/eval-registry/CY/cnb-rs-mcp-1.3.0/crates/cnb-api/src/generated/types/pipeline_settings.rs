use serde::{Deserialize, Serialize};

/// `PipelineSettings`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct PipelineSettings {
    /// 是否允许仓库按照.cnb.yml配置自动触发云原生构建。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub auto_trigger: Option<bool>,
    /// 是否允许NPC自动触发云原生构建。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub auto_trigger_by_npc: Option<bool>,
    /// 是否允许仓库按照.cnb.yml配置自动触发定时任务。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cron_auto_trigger: Option<bool>,
    /// 是否允许本仓Fork出来的仓库按照.cnb.yml配置自动触发云原生构建。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forked_repo_auto_trigger: Option<bool>,
}

impl PipelineSettings {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "auto_trigger",
        "auto_trigger_by_npc",
        "cron_auto_trigger",
        "forked_repo_auto_trigger",
    ];
}
