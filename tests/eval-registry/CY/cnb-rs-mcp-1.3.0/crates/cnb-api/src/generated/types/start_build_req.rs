use super::StartBuildNpc;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// `StartBuildReq`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct StartBuildReq {
    /// 触发分支，默认为主分支。Trigger branch, defaults to main branch.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub branch: Option<String>,
    /// 指定配置文件内容，yaml 格式。Config file content in YAML format.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub config: Option<String>,
    /// 环境变量，对象格式。Environment variables in object format.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub env: Option<HashMap<String, String>>,
    /// 事件名，须为 `api_trigger` 或以它开头。Event name; must be `api_trigger` or its prefix.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event: Option<String>,
    /// NPC 触发标识（可选）。NPC trigger marker (optional).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub npc: Option<StartBuildNpc>,
    /// commit id ，优先级比 tag 高，默认为分支最新提交记录。Commit ID, higher priority than tag, defaults to the latest commit of the branch.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sha: Option<String>,
    /// 是否等待构建触发，false 立即返回 sn 和 url。Whether to wait; false returns sn and `buildLogUrl` now.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sync: Option<String>,
    /// 触发 tag，优先级比 branch 高。Trigger tag, higher priority than branch.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tag: Option<String>,
    /// 构建标题。Build title.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
}

impl StartBuildReq {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "branch", "config", "env", "event", "npc", "sha", "sync", "tag", "title",
    ];
}
