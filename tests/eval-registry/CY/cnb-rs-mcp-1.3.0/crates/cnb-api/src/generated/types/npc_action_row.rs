use serde::{Deserialize, Serialize};

/// `NpcActionRow`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct NpcActionRow {
    /// 落库时间，ISO8601。Create time, ISO8601.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub create_time: Option<String>,
    /// 分发错误信息（status=2 时填充）。Dispatch error (when status=2).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dispatch_error: Option<String>,
    /// 事件类型。Event type.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event: Option<String>,
    /// 忽略码（status=1 时填充）。Ignore code (when status=1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ignore_code: Option<String>,
    /// 忽略原因（status=1 时填充）。Ignore reason (when status=1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ignore_reason: Option<String>,
    /// issue/PR 序号；无则返回 0。Issue/PR iid; 0 if absent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub iid: Option<i64>,
    /// NPC 头像在 NPC 仓库内的相对路径，**非 URL**；渲染需配合 `npc_slug`+`npc_sha` 走 git API。Repo-relative path, NOT a URL.
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
    /// 链式调用上一层 NPC 名。Parent NPC name in chained invocation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent_npc_name: Option<String>,
    /// 事件 commit sha。Event commit sha.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sha: Option<String>,
    /// 事件所在仓库 slug。Event repository slug.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub slug: Option<String>,
    /// 本次被唤起 NPC 的流水线 sn。NPC pipeline sn for this invocation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sn: Option<String>,
    /// 状态：0=已分发 / 1=被忽略 / 2=分发失败。Status: 0=dispatched / 1=ignored / 2=failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<i64>,
    /// 触发者 `user_id`。Trigger user id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trigger_user_id: Option<String>,
    /// 触发者是否 NPC：0/1。Whether trigger user is NPC: 0/1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trigger_user_is_npc: Option<i64>,
    /// 触发者用户名。Trigger username.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trigger_username: Option<String>,
    /// 仓库可见性。Repository visibility.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub visibility: Option<String>,
    /// 工作模式：0/1。Work mode: 0/1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub work_mode: Option<i64>,
}

impl NpcActionRow {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "create_time",
        "dispatch_error",
        "event",
        "ignore_code",
        "ignore_reason",
        "iid",
        "npc_avatar",
        "npc_name",
        "npc_sha",
        "npc_slug",
        "parent_npc_name",
        "sha",
        "slug",
        "sn",
        "status",
        "trigger_user_id",
        "trigger_user_is_npc",
        "trigger_username",
        "visibility",
        "work_mode",
    ];
}
