use serde::{Deserialize, Serialize};

/// `NpcCommitRow`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct NpcCommitRow {
    /// push 前 sha；branch.create 时为全零。Pre-push sha.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub before_sha: Option<String>,
    /// 本次推送 commit 数。Commits count in this push.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commits_count: Option<i64>,
    /// 落库时间，ISO8601。Create time, ISO8601.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub create_time: Option<String>,
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
    /// push 的 ref。Push ref.
    #[serde(rename = "ref")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ref_: Option<String>,
    /// push 后 sha。Post-push sha.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sha: Option<String>,
    /// 事件所在仓库 slug（push 目标）。Event repository slug (push target).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub slug: Option<String>,
    /// 上游 NPC 流水线 sn。Upstream NPC pipeline sn.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sn: Option<String>,
    /// 仓库可见性。Repository visibility.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub visibility: Option<String>,
}

impl NpcCommitRow {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "before_sha",
        "commits_count",
        "create_time",
        "npc_avatar",
        "npc_name",
        "npc_sha",
        "npc_slug",
        "pipeline_id",
        "ref",
        "sha",
        "slug",
        "sn",
        "visibility",
    ];
}
