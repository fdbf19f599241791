use serde::{Deserialize, Serialize};

/// `StartBuildNpc`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct StartBuildNpc {
    /// NPC 名称，仅支持 "`CodeBuddy`"。NPC name, only "`CodeBuddy`" is accepted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// 是否开启工作模式，未开启时 `CNB_TOKEN` 以只读权限为主。Whether to enable work mode; when disabled, `CNB_TOKEN` is mostly read-only.
    #[serde(rename = "workMode")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub work_mode: Option<bool>,
}

impl StartBuildNpc {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["name", "workMode"];
}
