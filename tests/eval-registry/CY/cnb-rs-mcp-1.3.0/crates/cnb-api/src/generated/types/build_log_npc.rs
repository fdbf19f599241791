use serde::{Deserialize, Serialize};

/// `BuildLogNpc`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct BuildLogNpc {
    /// NPC 匹配文本。NPC match text.
    #[serde(rename = "match")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub match_: Option<String>,
    /// NPC 角色名。NPC role name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// 触发 NPC 事件时其所属仓库默认分支的 sha。Default branch sha of the NPC repo when triggered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sha: Option<String>,
    /// NPC 所属仓库 slug。Slug of the NPC's repository.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub slug: Option<String>,
    /// 是否开启工作模式。Whether work mode is enabled.
    #[serde(rename = "workMode")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub work_mode: Option<bool>,
}

impl BuildLogNpc {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["match", "name", "sha", "slug", "workMode"];
}
