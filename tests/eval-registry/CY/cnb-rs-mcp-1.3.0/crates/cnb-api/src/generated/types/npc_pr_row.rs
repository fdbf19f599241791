use serde::{Deserialize, Serialize};

/// `NpcPrRow`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct NpcPrRow {
    /// PR 创建时间。PR creation time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub create_time: Option<String>,
    /// PR 序号。PR iid.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub iid: Option<i64>,
    /// NPC 头像相对路径，非 URL。Repo-relative path, NOT a URL.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub npc_avatar: Option<String>,
    /// NPC 角色名。NPC role name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub npc_name: Option<String>,
    /// NPC 仓库 sha。NPC repository sha.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub npc_sha: Option<String>,
    /// NPC 仓库 slug。NPC repository slug.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub npc_slug: Option<String>,
    /// 上游 NPC 流水线 id。Upstream NPC pipeline id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pipeline_id: Option<String>,
    /// PR 创建时 head sha。PR head sha at creation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sha: Option<String>,
    /// PR 目标仓库 slug。Target repository slug.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub slug: Option<String>,
    /// NPC 上游流水线 sn。Upstream NPC pipeline sn.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sn: Option<String>,
    /// PR 状态：open / merged / closed。PR state.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    /// 最后状态变更时间。Last state change time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub update_time: Option<String>,
    /// 仓库可见性。Repository visibility.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub visibility: Option<String>,
}

impl NpcPrRow {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "create_time",
        "iid",
        "npc_avatar",
        "npc_name",
        "npc_sha",
        "npc_slug",
        "pipeline_id",
        "sha",
        "slug",
        "sn",
        "state",
        "update_time",
        "visibility",
    ];
}
